import type {
  ChangedFile,
  CommitComparison,
  FileContent,
  PullRequestRef,
  RepositoryRef,
  Revision,
  ScmProviderV1,
} from '@margin/core/spec';
import { BoundedCache, encodePathSegments } from '../../utils/index.js';
import { decodeFile, diffFromVersions, withFileHeaders } from '../shared/index.js';
import { type GitHubConnection, pullRequestPath, repositoryPath, type Signal } from './github-connection.js';
import { readPullRequest } from './github-pull-requests.js';
import { type GhComparison, type GhPullRequestFile, relationOf, toChangedFile } from './github-wire.js';

/** Patches larger than this are not kept between listing files and asking for their diff. */
const MAX_CACHED_PATCH = 256 * 1024;
/** GitHub lists at most this many files of a pull request, and compares at most 300 between commits. */
const PULL_REQUEST_FILE_LIMIT = 3000;
const COMPARE_FILE_LIMIT = 300;

/** A patch GitHub sent with a file listing, with the paths of the listing it came from. */
interface CachedPatch {
  hunks: string;
  oldPath: string | undefined;
  newPath: string | undefined;
}

type Patches = BoundedCache<string, CachedPatch>;

/**
 * Changed files, file contents and diffs. GitHub sends a patch with each listed file; those are kept
 * for `getFileDiff`, which diffs both versions here only when GitHub sent none.
 */
export function gitHubDiffs(
  github: GitHubConnection,
): Pick<ScmProviderV1, 'listChangedFiles' | 'compareCommits' | 'getFileContent' | 'getFileDiff'> {
  const { client } = github;
  const patches: Patches = new BoundedCache(4096);
  const mergeBases = new BoundedCache<string, string>(256);

  return {
    /**
     * The pull request's own files (GitHub lists those of its current head, at most 3,000), or, for a
     * revision with an explicit `mergeBaseSha`, the files of `compare` from it (at most 300).
     */
    async *listChangedFiles(ref, revision, options): AsyncGenerator<ChangedFile> {
      const signal = options?.signal;
      if (revision.mergeBaseSha !== undefined) {
        const comparison = await compare(github, patches, ref, revision.mergeBaseSha, revision.headSha, signal);
        yield* comparison.files;
        if (comparison.truncation) options?.onTruncated?.(comparison.truncation);
        return;
      }
      let count = 0;
      for await (const file of client.pages<GhPullRequestFile>(`${pullRequestPath(ref)}/files`, {}, { signal })) {
        count++;
        rememberPatch(patches, patchKey(ref, revision, file.filename), file);
        yield toChangedFile(file);
      }
      // Only a listing that reached the cap can be cut; the pull request's own count tells.
      if (count >= PULL_REQUEST_FILE_LIMIT && options?.onTruncated) {
        const pr = await readPullRequest(github, ref, signal);
        if ((pr.changed_files ?? 0) > count) {
          options.onTruncated({
            limit: PULL_REQUEST_FILE_LIMIT,
            reason: 'GitHub lists at most 3,000 changed files of a pull request.',
          });
        }
      }
    },

    async compareCommits(ref, fromSha, toSha, options) {
      return compare(github, patches, ref, fromSha, toSha, options?.signal);
    },

    async getFileContent(ref, path, version, options): Promise<FileContent | undefined> {
      const at = typeof version === 'string' ? version : version.branch;
      const bytes = await fileBytes(github, ref, path, at, options?.signal);
      return bytes === undefined ? undefined : decodeFile(bytes);
    },

    async getFileDiff(ref, file, revision, options) {
      const signal = options?.signal;
      const cached = patches.get(patchKey(ref, revision, file.path));
      if (cached)
        return { text: withFileHeaders(cached.hunks, cached.oldPath, cached.newPath), commentable: 'diffLines' };
      // A pure rename of the pull request: GitHub counts no changed lines, sends no patch, and there is nothing to diff.
      const pureRename =
        revision.mergeBaseSha === undefined &&
        file.changeType === 'renamed' &&
        file.additions === 0 &&
        file.deletions === 0;
      if (pureRename)
        return { text: withFileHeaders('', file.previousPath ?? file.path, file.path), commentable: 'diffLines' };
      // GitHub leaves `patch` out for large and binary files, and an interdiff has none: diff both versions here.
      const base = await mergeBaseOf(github, mergeBases, ref, revision, signal);
      const text = await diffFromVersions(file, base, revision.headSha, (path, sha) =>
        fileBytes(github, ref, path, sha, signal),
      );
      return { text, commentable: 'diffLines' };
    },
  };
}

/**
 * Patches are keyed by what they diff, base and head: the pull request against its target (GitHub
 * diffs from their merge base), or an explicit base to a head. An interdiff between two pushes
 * therefore never gets the pull request's patch of the same head.
 */
function rangePatchKey(ref: RepositoryRef, baseSha: string, headSha: string, path: string) {
  return `${ref.repositoryId}:${baseSha}...${headSha}:${path}`;
}

function patchKey(ref: PullRequestRef, revision: Revision, path: string) {
  return revision.mergeBaseSha === undefined
    ? `${ref.repositoryId}#${ref.pullRequestId}:${revision.baseSha}...${revision.headSha}:${path}`
    : rangePatchKey(ref, revision.mergeBaseSha, revision.headSha, path);
}

function rememberPatch(patches: Patches, key: string, file: GhPullRequestFile) {
  if (file.patch === undefined || file.patch.length > MAX_CACHED_PATCH) return;
  const changed = toChangedFile(file);
  patches.set(key, {
    hunks: file.patch,
    oldPath: changed.changeType === 'added' ? undefined : (changed.previousPath ?? changed.path),
    newPath: changed.changeType === 'deleted' ? undefined : changed.path,
  });
}

/** A file's bytes at a commit SHA or branch name; `undefined` when it does not exist there. */
async function fileBytes(github: GitHubConnection, ref: RepositoryRef, path: string, version: string, signal: Signal) {
  const response = await github.client.rest<Uint8Array>({
    path: `${repositoryPath(ref)}/contents/${encodePathSegments(path)}`,
    query: { ref: version },
    headers: { accept: 'application/vnd.github.raw+json' },
    responseType: 'bytes',
    allowStatuses: [404],
    signal,
  });
  return response.status === 404 ? undefined : response.data;
}

/** The merge base GitHub diffs a pull request against; `compare` is the one call that names it. */
async function mergeBaseOf(
  github: GitHubConnection,
  mergeBases: BoundedCache<string, string>,
  ref: RepositoryRef,
  revision: Revision,
  signal: Signal,
) {
  if (revision.mergeBaseSha) return revision.mergeBaseSha;
  const key = `${ref.repositoryId}:${revision.baseSha}...${revision.headSha}`;
  const known = mergeBases.get(key);
  if (known) return known;
  const { data } = await github.client.rest<GhComparison>({
    path: `${repositoryPath(ref)}/compare/${revision.baseSha}...${revision.headSha}`,
    query: { per_page: 1 },
    signal,
  });
  const sha = data.merge_base_commit?.sha ?? revision.baseSha;
  mergeBases.set(key, sha);
  return sha;
}

/**
 * `compare/{from}...{to}` diffs from the two commits' merge base, so its patches are the diff from
 * `from` only when `to` descends from it; only then are they kept for `getFileDiff`.
 */
async function compare(
  github: GitHubConnection,
  patches: Patches,
  ref: RepositoryRef,
  fromSha: string,
  toSha: string,
  signal: Signal,
): Promise<CommitComparison> {
  const { data } = await github.client.rest<GhComparison>({
    path: `${repositoryPath(ref)}/compare/${fromSha}...${toSha}`,
    signal,
  });
  const relation = relationOf(data.status);
  const files = data.files ?? [];
  if (relation === 'ahead' || relation === 'identical') {
    for (const file of files) rememberPatch(patches, rangePatchKey(ref, fromSha, toSha, file.filename), file);
  }
  const comparison: CommitComparison = { relation, files: files.map(toChangedFile) };
  // GitHub sends no total: a full list may have been cut at the limit.
  if (files.length >= COMPARE_FILE_LIMIT) {
    comparison.truncation = {
      limit: COMPARE_FILE_LIMIT,
      reason: 'GitHub compares at most 300 files between two commits.',
    };
  }
  return comparison;
}
