import {
  type ChangedFile,
  type CommitComparison,
  type FileContent,
  MarginError,
  type RepositoryRef,
  type ScmProviderV1,
} from '@margin/core/spec';
import { branchName, decodeFile, diffFromVersions } from '../shared/index.js';
import { type ChangeTrackingIds, changeEntries } from './azure-devops-change-tracking.js';
import { type AzureDevOpsConnection, getJson, PAGE, repositoryUrl, type Signal } from './azure-devops-connection.js';
import { resolveIterationId } from './azure-devops-pull-requests.js';
import { type AdoChange, type AdoCommitDiffs, relationOf, toChangedFile } from './azure-devops-wire.js';

/** Tracking ids are remembered from a listing only while it stays small enough to be cheap. */
const MAX_REMEMBERED_TRACKING_IDS = 20_000;

/**
 * Changed files, file contents and diffs. Azure DevOps has no diff endpoint: both versions of a file
 * are fetched and diffed here, and comments may go on any line.
 */
export function azureDevOpsDiffs(
  ado: AzureDevOpsConnection,
  trackingIds: ChangeTrackingIds,
): Pick<ScmProviderV1, 'listChangedFiles' | 'compareCommits' | 'getFileContent' | 'getFileDiff'> {
  return {
    async *listChangedFiles(ref, revision, options): AsyncGenerator<ChangedFile> {
      const signal = options?.signal;
      const iterationId = await resolveIterationId(ado, ref, revision, signal);
      if (iterationId === undefined) return;
      const known = new Map<string, number>();
      for await (const entry of changeEntries(ado, ref, iterationId, signal)) {
        const file = toChangedFile(entry);
        if (!file) continue;
        if (known.size < MAX_REMEMBERED_TRACKING_IDS) known.set(file.path, entry.changeTrackingId);
        yield file;
      }
      if (known.size < MAX_REMEMBERED_TRACKING_IDS) trackingIds.remember(ref, iterationId, known);
    },

    async compareCommits(ref, fromSha, toSha, options): Promise<CommitComparison> {
      const { diffs, changes } = await commitDiffs(ado, ref, fromSha, toSha, options?.signal);
      const files = changes.flatMap((change) => toChangedFile(change) ?? []);
      return { relation: relationOf(diffs, fromSha, toSha), files };
    },

    async getFileContent(ref, path, version, options): Promise<FileContent | undefined> {
      const bytes = await fileBytes(ado, ref, path, version, options?.signal);
      return bytes === undefined ? undefined : decodeFile(bytes);
    },

    async getFileDiff(ref, file, revision, options) {
      // Against the merge base, as the pull request view does.
      const signal = options?.signal;
      const base = revision.mergeBaseSha ?? revision.baseSha;
      const text = await diffFromVersions(file, base, revision.headSha, (path, sha) =>
        fileBytes(ado, ref, path, sha, signal),
      );
      return { text, commentable: 'anyLine' };
    },
  };
}

/** A file's bytes at a commit or the tip of a branch; `undefined` when it does not exist there. */
async function fileBytes(
  ado: AzureDevOpsConnection,
  ref: RepositoryRef,
  path: string,
  version: string | { branch: string },
  signal: Signal,
) {
  const response = await ado.client.request<Uint8Array>({
    url: `${repositoryUrl(ado, ref)}/items`,
    query: {
      path: `/${path.replace(/^\/+/, '')}`,
      'versionDescriptor.version': typeof version === 'string' ? version : branchName(version.branch),
      'versionDescriptor.versionType': typeof version === 'string' ? 'commit' : 'branch',
      $format: 'octetStream',
      download: false,
    },
    headers: { accept: 'application/octet-stream' },
    responseType: 'bytes',
    allowStatuses: [404],
    signal,
  });
  if (response.status !== 404) return response.data;
  // 404 covers both a missing path (TF401174, GitItemNotFoundException) and a missing repository;
  // only the first means "no such file at this commit".
  const body = response.data instanceof Uint8Array ? new TextDecoder().decode(response.data) : '';
  if (/GitItemNotFoundException|TF401174/.test(body)) return undefined;
  throw MarginError.notFound(`Azure DevOps has no repository ${ref.repositoryId} in project ${ref.projectKey}.`);
}

/** `diffs/commits` page by page (`$top`/`$skip`), from `fromSha` itself rather than the common commit. */
async function commitDiffs(
  ado: AzureDevOpsConnection,
  ref: RepositoryRef,
  fromSha: string,
  toSha: string,
  signal: Signal,
) {
  const changes: AdoChange[] = [];
  let first: AdoCommitDiffs | undefined;
  for (let skip = 0; ; skip += PAGE) {
    const page = await getJson<AdoCommitDiffs>(ado, `${repositoryUrl(ado, ref)}/diffs/commits`, signal, {
      baseVersion: fromSha,
      baseVersionType: 'commit',
      targetVersion: toSha,
      targetVersionType: 'commit',
      diffCommonCommit: 'false',
      $top: PAGE,
      $skip: skip,
    });
    first ??= page;
    changes.push(...(page.changes ?? []));
    // Paged by count alone: what `allChangesIncluded` promises across pages is not documented.
    if ((page.changes?.length ?? 0) < PAGE) break;
  }
  return { diffs: first ?? {}, changes };
}
