import type {
  ChangedFile,
  CommitComparison,
  CreatedThread,
  CreateThreadInput,
  CreateThreadOutcome,
  EditCommentInput,
  FileContent,
  FileDiff,
  ListChangedFilesOptions,
  PullRequestRef,
  PullRequestSnapshot,
  ReviewThread,
  Revision,
  ScmCallOptions,
  ScmProviderV1,
  ThreadStatus,
} from '../../scm-provider/index.js';

/**
 * What a review reads about one pull request. The service binds an SCM provider to the job's pull
 * request; reviewing a local git repository (the `margin review` CLI) implements it with git.
 */
export interface ReviewSource {
  getPullRequest(options?: ScmCallOptions): Promise<PullRequestSnapshot>;
  listChangedFiles(revision: Revision, options?: ListChangedFilesOptions): AsyncIterable<ChangedFile>;
  getFileDiff(file: ChangedFile, revision: Revision, options?: ScmCallOptions): Promise<FileDiff>;
  /**
   * `false` when `getFileContent` can never find a file of the head revision (a bare diff has no
   * repository behind it): the review then offers no tool that reads files. Absent means it can.
   */
  readonly readsFiles?: boolean | undefined;
  getFileContent(
    path: string,
    version: string | { branch: string },
    options?: ScmCallOptions,
  ): Promise<FileContent | undefined>;
  listThreads(options?: ScmCallOptions): AsyncIterable<ReviewThread>;
  /** How two commits relate; without it, every review is a full one. */
  compareCommits?(fromSha: string, toSha: string, options?: ScmCallOptions): Promise<CommitComparison>;
}

/** Where a review posts: inline threads in one batch, the summary created once and edited after. */
export interface ReviewPublisher {
  createThreads(
    input: { revision: Revision; threads: Array<Omit<CreateThreadInput, 'revision'>> },
    options?: ScmCallOptions,
  ): Promise<CreateThreadOutcome[]>;
  createThread(input: CreateThreadInput, options?: ScmCallOptions): Promise<CreatedThread>;
  editComment(input: EditCommentInput, options?: ScmCallOptions): Promise<void>;
  /** For a note on a finding's thread when it is resolved. */
  reply(threadId: string, body: string, options?: ScmCallOptions): Promise<{ commentId: string }>;
  setThreadStatus(threadId: string, status: ThreadStatus, options?: ScmCallOptions): Promise<void>;
}

/** An SCM provider's calls bound to one pull request. */
export function scmReviewSource(provider: ScmProviderV1, ref: PullRequestRef): ReviewSource & ReviewPublisher {
  return {
    getPullRequest: (options) => provider.getPullRequest(ref, options),
    listChangedFiles: (revision, options) => provider.listChangedFiles(ref, revision, options),
    getFileDiff: (file, revision, options) => provider.getFileDiff(ref, file, revision, options),
    getFileContent: (path, version, options) => provider.getFileContent(ref, path, version, options),
    listThreads: (options) => provider.listThreads(ref, options),
    compareCommits: (fromSha, toSha, options) => provider.compareCommits(ref, fromSha, toSha, options),
    createThreads: (input, options) => provider.createThreads(ref, input, options),
    createThread: (input, options) => provider.createThread(ref, input, options),
    editComment: (input, options) => provider.editComment(ref, input, options),
    reply: (threadId, body, options) => provider.reply(ref, threadId, body, options),
    setThreadStatus: (threadId, status, options) => provider.setThreadStatus(ref, threadId, status, options),
  };
}
