/**
 * Test support: a pull request held in memory (files with their `git diff` text), serving as both
 * the review source and the publisher, and a model set where one scripted model serves every
 * purpose. Posted threads are kept with their markers, so a second run sees the first run's posts.
 */
import type { AiModelV1, ModelPrices } from '../../ai-model/index.js';
import { type Ids, MarginError, systemClock } from '../../kernel/index.js';
import type {
  ChangedFile,
  CreateThreadInput,
  EditCommentInput,
  PullRequestSnapshot,
  ReviewThread,
} from '../../scm-provider/index.js';
import type { RunReviewInput } from '../pipeline/review-run.js';
import type { ReviewPublisher, ReviewSource } from '../pipeline/review-source.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';
import type { ReviewModel, ReviewModels } from '../review-engine-v1.js';
import { createMemoryProtocol, type ReviewProtocol } from '../standalone/memory-protocol.js';
import { type ReviewModelTraits, reviewModelsOf } from '../standalone/review-models.js';

export interface MemoryFile extends ChangedFile {
  /** The file's unified diff, as `git diff` prints it (without `diff --git`). */
  diff: string;
}

export interface MemoryPullRequest extends ReviewSource, ReviewPublisher {
  pr: PullRequestSnapshot;
  files: MemoryFile[];
  threads: ReviewThread[];
  /** Every thread created, in order, as sent. */
  created: Array<Omit<CreateThreadInput, 'revision'>>;
  edits: EditCommentInput[];
  branchFiles: Record<string, string>;
  /** Files of the head revision, by path, for reads at a commit. */
  headFiles: Record<string, string>;
  /** Every `getFileContent` call at a commit, as asked. */
  contentReads: Array<{ path: string; version: string }>;
  /** Paths whose threads the "provider" refuses; `''` refuses pull-request-level threads (the summary). */
  refuse: Set<string>;
  diffReads: number;
  /** How the head relates to any earlier head asked about; `ahead` by default. */
  relation: 'ahead' | 'diverged' | 'identical';
  /** Diffs since an earlier head (asked with `mergeBaseSha`), by path; none means unchanged. */
  interdiffs: Record<string, string>;
  replies: Array<{ threadId: string; body: string }>;
}

export function memoryPullRequest(files: MemoryFile[], pr: Partial<PullRequestSnapshot> = {}): MemoryPullRequest {
  let nextThread = 1;
  const state: MemoryPullRequest = {
    pr: {
      ref: { scopePath: 'https://git.example.test/acme', projectKey: 'acme', repositoryId: '1', pullRequestId: 7 },
      title: 'Change things',
      description: 'A change.',
      status: 'open',
      isDraft: false,
      sourceBranch: 'feature',
      targetBranch: 'main',
      author: { externalUserId: 'u1', login: 'ada', displayName: 'Ada', isBot: false },
      revision: { revisionId: 'h'.repeat(40), headSha: 'h'.repeat(40), baseSha: 'b'.repeat(40) },
      repositoryName: 'app',
      ...pr,
    },
    files,
    threads: [],
    created: [],
    edits: [],
    branchFiles: {},
    headFiles: {},
    contentReads: [],
    refuse: new Set(),
    diffReads: 0,
    relation: 'ahead',
    interdiffs: {},
    replies: [],
    async getPullRequest() {
      return state.pr;
    },
    async *listChangedFiles() {
      for (const { diff: _diff, ...file } of state.files) yield file;
    },
    async getFileDiff(file, revision) {
      state.diffReads++;
      if (revision.mergeBaseSha) return { text: state.interdiffs[file.path] ?? '', commentable: 'diffLines' as const };
      const found = state.files.find((f) => f.path === file.path);
      return { text: found?.diff ?? '', commentable: 'diffLines' as const };
    },
    async compareCommits(fromSha, toSha) {
      return { relation: fromSha === toSha ? 'identical' : state.relation, files: [] };
    },
    async reply(threadId, body) {
      state.replies.push({ threadId, body });
      const thread = state.threads.find((t) => t.threadId === threadId);
      const commentId = `${threadId}-c${(thread?.comments.length ?? 0) + 1}`;
      thread?.comments.push({
        commentId,
        author: { externalUserId: 'bot', login: 'margin', displayName: 'Margin', isBot: true },
        body,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      return { commentId };
    },
    async setThreadStatus(threadId, status) {
      const thread = state.threads.find((t) => t.threadId === threadId);
      if (thread) thread.status = status;
    },
    async getFileContent(path, version) {
      if (typeof version === 'string') state.contentReads.push({ path, version });
      const text =
        typeof version === 'object'
          ? state.branchFiles[path]
          : version === state.pr.revision.headSha
            ? Object.hasOwn(state.headFiles, path)
              ? state.headFiles[path]
              : undefined
            : undefined;
      return text === undefined ? undefined : { text, sizeBytes: text.length, isBinary: false };
    },
    async *listThreads() {
      for (const thread of state.threads) yield structuredClone(thread);
    },
    async createThreads(input) {
      return Promise.all(
        input.threads.map(async (t) => {
          try {
            return { ok: true as const, thread: await state.createThread({ ...t, revision: input.revision }) };
          } catch (error) {
            return { ok: false as const, error: error as never };
          }
        }),
      );
    },
    async createThread(input) {
      if (state.refuse.has(input.anchor?.filePath ?? '')) {
        const where = input.anchor ? `the diff of ${input.anchor.filePath}` : 'this pull request';
        throw MarginError.provider('rejected', `The comment is not accepted on ${where}.`, {
          providerStatus: 422,
        });
      }
      const { revision: _revision, ...rest } = input;
      state.created.push(rest);
      const threadId = `t${nextThread++}`;
      state.threads.push({
        threadId,
        status: 'open',
        anchor: input.anchor,
        marker: input.marker,
        authoredByConnection: true,
        comments: [
          {
            commentId: `${threadId}-c1`,
            author: { externalUserId: 'bot', login: 'margin', displayName: 'Margin', isBot: true },
            body: input.body,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
        ],
      });
      return { threadId, commentId: `${threadId}-c1` };
    },
    async editComment(input) {
      state.edits.push(input);
      const thread = state.threads.find((t) => t.threadId === input.threadId);
      const comment = thread?.comments.find((c) => c.commentId === input.commentId);
      if (!comment) {
        throw MarginError.notFound('No such comment.');
      }
      comment.body = input.body;
    },
  };
  return state;
}

/** One model for every purpose, with the traits a test wants. */
export function singleModel(model: AiModelV1, traits: ReviewModelTraits = {}): ReviewModels {
  return reviewModelsOf(model, {
    connectionId: 'connection-1',
    maxContextTokens: 128_000,
    prices: { inputCostPer1MUsd: 2, outputCostPer1MUsd: 8 },
    ...traits,
  });
}

/**
 * A model set as a host with purpose mappings resolves it: each purpose in `mapped` is served by its
 * own model at its own prices (`resolvedPurpose` is the purpose itself); every other purpose falls
 * back to `reviewDefault`.
 */
export function modelsByPurpose(
  reviewDefault: { model: AiModelV1; prices: ModelPrices },
  mapped: Partial<Record<ReviewModel['purpose'], { model: AiModelV1; prices: ModelPrices }>> = {},
): ReviewModels {
  return {
    async forPurpose(purpose) {
      const own = mapped[purpose];
      return {
        purpose,
        resolvedPurpose: own ? purpose : 'reviewDefault',
        connectionId: own ? `connection-${purpose}` : 'connection-1',
        model: (own ?? reviewDefault).model,
        supportsStructuredOutput: false,
        supportsToolUse: false,
        maxContextTokens: 128_000,
        prices: (own ?? reviewDefault).prices,
        reasoningEffort: 'none',
      };
    },
  };
}

/** A protocol kept in memory, for reading what a run recorded (fixed times, counting ids). */
export function memoryProtocol(): ProtocolWriter & ReviewProtocol {
  let n = 0;
  return createMemoryProtocol({
    jobId: 'job',
    clock: { now: () => new Date('2026-01-01T00:00:00.000Z') },
    newId: () => `id-${++n}`,
  });
}

/** Counting ids, so runs are deterministic. */
export function countingIds(): Ids {
  let n = 0;
  return {
    uuid: () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`,
    randomHex: (bytes) => 'ab12cd34'.repeat(bytes).slice(0, bytes * 2),
  };
}

/**
 * A review run's input with the defaults every engine test shares (job `job-1`, the system clock,
 * counting ids, a signal never aborted, no progress reporting, no named revision); a test gives what
 * it is about.
 */
export function reviewInput(
  input: Pick<RunReviewInput, 'source' | 'models' | 'memory' | 'protocol'> & Partial<RunReviewInput>,
): RunReviewInput {
  return {
    jobId: 'job-1',
    clock: systemClock,
    ids: countingIds(),
    signal: new AbortController().signal,
    reportProgress: () => undefined,
    revision: null,
    ...input,
  };
}
