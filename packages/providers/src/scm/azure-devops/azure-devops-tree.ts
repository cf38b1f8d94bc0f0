import type { ScmProviderV1, TreeEntry } from '@margin/core/spec';
import { continuationToken, normalizeTreePrefix, paginate } from '../../utils/index.js';
import { headsRef } from '../shared/index.js';
import { type AzureDevOpsConnection, PAGE, repositoryUrl } from './azure-devops-connection.js';
import type { AdoList } from './azure-devops-wire.js';

/** One item of `GET {R}/items?recursionLevel=Full`. */
interface AdoTreeItem {
  objectId: string;
  /** `blob`, `tree`, or `commit` for a submodule. */
  gitObjectType: string;
  path: string;
  isFolder?: boolean | undefined;
}

/** Where a branch points and every file at a commit, for code knowledge. */
export function azureDevOpsTree(
  ado: AzureDevOpsConnection,
): Required<Pick<ScmProviderV1, 'getBranchHead' | 'listTree'>> {
  return {
    async getBranchHead(ref, branch, options) {
      // `filter` matches a prefix (`heads/main` also finds `heads/main-old`), so the exact name is picked.
      const wanted = headsRef(branch);
      const refs = paginate<{ name: string; objectId: string }, string>(undefined, async (token) => {
        const response = await ado.client.request<AdoList<{ name: string; objectId: string }>>({
          url: `${repositoryUrl(ado, ref)}/refs`,
          query: { filter: wanted.slice('refs/'.length), $top: PAGE, continuationToken: token },
          signal: options?.signal,
        });
        return { items: response.data.value, next: continuationToken(response.headers) };
      });
      for await (const found of refs) if (found.name === wanted) return found.objectId;
      return undefined;
    },

    /**
     * One call: the items listing has no paging and answers the whole recursive scope at once. A
     * scope path that does not exist at the commit is a 404, an empty listing here. Folders and
     * submodules are left out; the listing names no sizes.
     */
    async *listTree(ref, commitSha, options) {
      const prefix = normalizeTreePrefix(options?.pathPrefix);
      const response = await ado.client.request<AdoList<AdoTreeItem>>({
        url: `${repositoryUrl(ado, ref)}/items`,
        query: {
          scopePath: `/${prefix}`,
          recursionLevel: 'Full',
          'versionDescriptor.version': commitSha,
          'versionDescriptor.versionType': 'commit',
        },
        allowStatuses: [404],
        signal: options?.signal,
      });
      if (response.status === 404) return;
      for (const item of response.data.value) {
        if (item.gitObjectType !== 'blob' || item.isFolder) continue;
        const entry: TreeEntry = { path: item.path.replace(/^\/+/, ''), blobId: item.objectId };
        yield entry;
      }
    },
  };
}
