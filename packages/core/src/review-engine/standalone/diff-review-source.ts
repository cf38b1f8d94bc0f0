import { createHash } from 'node:crypto';
import type { ChangedFile, PullRequestSnapshot } from '../../scm-provider/index.js';
import type { ReviewSource } from '../pipeline/review-source.js';
import { splitUnifiedDiff } from './unified-diff-files.js';

export interface DiffSourceInput {
  /** Unified diff text of one or many files, as `git diff` (or `diff -u`) prints it. */
  diff: string;
  title?: string | undefined;
  description?: string | undefined;
  /** Named in the summary; default: a hash of the diff, so the same diff reads the same. */
  headSha?: string | undefined;
  baseSha?: string | undefined;
}

/**
 * A change given as diff text, served as a pull request: its files with their diffs and nothing
 * else — no file contents, no threads (anchoring and review read only the diff).
 */
export function diffReviewSource(input: DiffSourceInput): ReviewSource {
  const files = splitUnifiedDiff(input.diff);
  const digest = createHash('sha1').update(input.diff).digest('hex');
  const headSha = input.headSha ?? digest;
  const baseSha = input.baseSha ?? createHash('sha1').update(`base:${digest}`).digest('hex');
  const pr: PullRequestSnapshot = {
    ref: { scopePath: 'diff:', projectKey: '', repositoryId: '', pullRequestId: 0 },
    title: input.title ?? '',
    description: input.description ?? '',
    status: 'open',
    isDraft: false,
    sourceBranch: 'head',
    targetBranch: 'base',
    author: { externalUserId: '', login: '', displayName: '', isBot: false },
    revision: { revisionId: headSha, headSha, baseSha, mergeBaseSha: baseSha },
    repositoryName: '',
  };
  const byPath = new Map(files.map((f) => [f.path, f]));
  return {
    readsFiles: false,
    async getPullRequest() {
      return pr;
    },
    async *listChangedFiles() {
      for (const f of files) {
        const changed: ChangedFile = {
          path: f.path,
          previousPath: f.previousPath,
          changeType: f.changeType,
          isBinary: f.isBinary,
          additions: f.additions,
          deletions: f.deletions,
        };
        yield changed;
      }
    },
    async getFileDiff(file) {
      return { text: byPath.get(file.path)?.diff ?? '', commentable: 'diffLines' as const };
    },
    async getFileContent() {
      return undefined;
    },
    async *listThreads() {},
  };
}
