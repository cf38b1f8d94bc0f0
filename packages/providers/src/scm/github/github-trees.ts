import type { ScmProviderV1, TreeEntry } from '@margin/core/spec';
import { encodePathSegments } from '../../utils/index.js';
import { type GitHubConnection, repositoryPath, type Signal } from './github-connection.js';

/** `GET /git/trees/{sha}`: GitHub's tree object, cut (`truncated`) past 100,000 entries or 7 MB. */
interface GhTree {
  sha: string;
  truncated?: boolean;
  tree: Array<{ path: string; type: 'blob' | 'tree' | 'commit'; sha: string; size?: number; mode?: string }>;
}

interface GhBranch {
  name: string;
  commit: { sha: string };
}

type TreePart = Required<Pick<ScmProviderV1, 'getBranchHead' | 'listTree'>>;

/**
 * Branch heads and whole-tree listings, for the code-knowledge indexer. One recursive call lists
 * most repositories; when GitHub says the listing was cut, the tree is walked one level at a time
 * instead, so no file is missed however large the repository is.
 */
export function gitHubTrees(github: GitHubConnection): TreePart {
  const { client } = github;

  const readTree = async (ref: Parameters<TreePart['listTree']>[0], sha: string, recursive: boolean, signal: Signal) =>
    (
      await client.rest<GhTree>({
        path: `${repositoryPath(ref)}/git/trees/${encodeURIComponent(sha)}`,
        query: recursive ? { recursive: 1 } : {},
        signal,
      })
    ).data;

  return {
    async getBranchHead(ref, branch, options) {
      const response = await client.rest<GhBranch>({
        path: `${repositoryPath(ref)}/branches/${encodePathSegments(branch)}`,
        allowStatuses: [404],
        signal: options?.signal,
      });
      return response.status === 404 ? undefined : response.data.commit.sha;
    },

    async *listTree(ref, commitSha, options): AsyncGenerator<TreeEntry> {
      const signal = options?.signal;
      const prefix = normalizedPrefix(options?.pathPrefix);
      const under = (path: string) => prefix === '' || path.startsWith(prefix);
      const whole = await readTree(ref, commitSha, true, signal);
      if (!whole.truncated) {
        for (const entry of whole.tree) {
          if (entry.type === 'blob' && under(entry.path)) yield entryOf(entry, '');
        }
        return;
      }
      // Cut: walk level by level, entering only folders on the way to (or inside) the prefix.
      const pending: Array<{ sha: string; base: string }> = [{ sha: commitSha, base: '' }];
      while (pending.length > 0) {
        const { sha, base } = pending.pop() as { sha: string; base: string };
        const level = await readTree(ref, sha, false, signal);
        for (const entry of level.tree) {
          const path = base + entry.path;
          if (entry.type === 'tree') {
            const folder = `${path}/`;
            if (under(folder) || prefix.startsWith(folder)) pending.push({ sha: entry.sha, base: folder });
          } else if (entry.type === 'blob' && under(path)) {
            yield entryOf(entry, base);
          }
        }
      }
    },
  };
}

/** `src/app` and `/src/app/` both mean the folder `src/app/`; `/` or nothing means everything. */
function normalizedPrefix(pathPrefix: string | undefined): string {
  const trimmed = (pathPrefix ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

function entryOf(entry: GhTree['tree'][number], base: string): TreeEntry {
  return { path: base + entry.path, blobId: entry.sha, sizeBytes: entry.size };
}
