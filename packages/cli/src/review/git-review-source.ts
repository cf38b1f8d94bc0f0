import { stat } from 'node:fs/promises';
import { MarginError, splitUnifiedDiff } from '@margin/core';
import type { ChangedFile, ChangeType, PullRequestSnapshot, ReviewSource } from '@margin/core/spec';
import { type GitContext, gitText, runGit } from './git.js';

export interface GitRange {
  repo: string;
  base: string;
  head: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal | undefined;
}

const DIFF_FLAGS = ['-M', '-U3', '--no-color', '--no-ext-diff', '--no-textconv'];

/**
 * A local repository's change as a pull request: from the merge base of `base` and `head` to
 * `head`, read with the system `git` — the file list with `--name-status` and `--numstat`, each
 * file's diff with `git diff -M` (git's 3 context lines; binary files, renames, deletions and CRLF
 * as git prints them), and `.margin/config.yml` from the base side with `git show`. The title is
 * the head commit's subject; the description the range's commit messages.
 */
export async function gitReviewSource(range: GitRange): Promise<ReviewSource> {
  let ctx: GitContext = { repo: range.repo, env: range.env, signal: range.signal };
  const isDirectory = await stat(range.repo).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDirectory) throw MarginError.validation(`--repo ${range.repo} is not a directory.`);
  const inside = await runGit(ctx, ['rev-parse', '--is-inside-work-tree']);
  const bare = await runGit(ctx, ['rev-parse', '--is-bare-repository']);
  const inWorkTree = inside.ok && inside.stdout.toString().trim() === 'true';
  if (!(inWorkTree || (bare.ok && bare.stdout.toString().trim() === 'true'))) {
    throw MarginError.validation(`${range.repo} is not a git repository.`);
  }
  if (inWorkTree) {
    // Paths are the repository's, from its top, whichever folder of it --repo names.
    ctx = { ...ctx, repo: (await gitText(ctx, ['rev-parse', '--show-toplevel'], 'Finding the work tree')).trim() };
  }
  const commit = async (ref: string, flag: string) => {
    const out = await runGit(ctx, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
    if (!out.ok) throw MarginError.validation(`${flag} ${ref} is not a commit in ${range.repo}.`);
    return out.stdout.toString('utf8').trim();
  };
  const baseSha = await commit(range.base, '--base');
  const headSha = await commit(range.head, '--head');
  const mergeBase = await runGit(ctx, ['merge-base', baseSha, headSha]);
  if (!mergeBase.ok) {
    throw MarginError.validation(`--base ${range.base} and --head ${range.head} have no common ancestor.`);
  }
  const mergeBaseSha = mergeBase.stdout.toString('utf8').trim();
  const [subject, messages] = await Promise.all([
    gitText(ctx, ['log', '-1', '--format=%s', headSha], 'Reading the head commit'),
    gitText(ctx, ['log', '--format=%B', '--max-count=50', `${mergeBaseSha}..${headSha}`], 'Reading the commits'),
  ]);
  const pr: PullRequestSnapshot = {
    ref: { scopePath: `file://${range.repo}`, projectKey: '', repositoryId: '', pullRequestId: 0 },
    title: subject.trim(),
    description: messages.trim(),
    status: 'open',
    isDraft: false,
    sourceBranch: range.head,
    targetBranch: range.base,
    author: { externalUserId: '', login: '', displayName: '', isBot: false },
    revision: { revisionId: headSha, headSha, baseSha, mergeBaseSha },
    repositoryName: range.repo,
  };

  return {
    async getPullRequest() {
      return pr;
    },
    async *listChangedFiles() {
      yield* await changedFiles(ctx, mergeBaseSha, headSha);
    },
    async getFileDiff(file, _revision, options) {
      const paths = file.previousPath ? [file.previousPath, file.path] : [file.path];
      const text = await gitText(
        { ...ctx, signal: options?.signal ?? ctx.signal },
        ['diff', ...DIFF_FLAGS, mergeBaseSha, headSha, '--', ...paths],
        `Reading the diff of ${file.path}`,
      );
      const own = splitUnifiedDiff(text).find((f) => f.path === file.path);
      return { text: own?.diff ?? '', commentable: 'diffLines' as const };
    },
    async getFileContent(path, version, options) {
      // Configuration comes from the base side: the change under review cannot configure its own review.
      const rev = typeof version === 'string' ? version : baseSha;
      const out = await runGit({ ...ctx, signal: options?.signal ?? ctx.signal }, ['show', `${rev}:${path}`]);
      if (!out.ok) return undefined;
      const isBinary = out.stdout.subarray(0, 8000).includes(0);
      return { text: isBinary ? '' : out.stdout.toString('utf8'), sizeBytes: out.stdout.length, isBinary };
    },
    async *listThreads() {},
  };
}

const STATUS: Record<string, ChangeType> = {
  A: 'added',
  C: 'added',
  D: 'deleted',
  M: 'modified',
  T: 'modified',
  R: 'renamed',
};

/** `--name-status -z` for what changed, `--numstat -z` for line counts and binary files. */
async function changedFiles(ctx: GitContext, from: string, to: string): Promise<ChangedFile[]> {
  const [names, counts] = await Promise.all([
    gitText(ctx, ['diff', '--name-status', '-z', '-M', from, to], 'Listing the changed files'),
    gitText(ctx, ['diff', '--numstat', '-z', '-M', from, to], 'Counting the changed lines'),
  ]);
  const numstat = new Map<string, { additions?: number; deletions?: number; binary: boolean }>();
  const c = counts.split('\0');
  for (let i = 0; i < c.length - 1; i++) {
    const [added, deleted, path] = (c[i] as string).split('\t');
    // A rename's numstat has an empty path here and both paths in the next two fields.
    let head = path;
    if (path === '') {
      i += 2;
      head = c[i];
    }
    if (head === undefined) continue;
    numstat.set(head, {
      binary: added === '-',
      ...(added === '-' ? {} : { additions: Number(added), deletions: Number(deleted) }),
    });
  }
  const files: ChangedFile[] = [];
  const n = names.split('\0');
  for (let i = 0; i < n.length - 1; ) {
    const status = n[i++] as string;
    const letter = status[0] ?? 'M';
    const changeType = STATUS[letter] ?? 'modified';
    const previousPath = letter === 'R' || letter === 'C' ? n[i++] : undefined;
    const path = n[i++] as string;
    const stats = numstat.get(path);
    files.push({
      path,
      ...(letter === 'R' ? { previousPath } : {}),
      changeType,
      rawChangeType: status,
      isBinary: stats?.binary ?? false,
      additions: stats?.additions,
      deletions: stats?.deletions,
    });
  }
  return files;
}
