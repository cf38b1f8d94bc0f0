import type { ScmProviderV1, ScmWiki } from '@margin/core/spec';
import { normalizeTreePrefix } from '../../utils/index.js';
import { type AzureDevOpsConnection, getJson, projectUrl } from './azure-devops-connection.js';
import type { AdoList, AdoWiki } from './azure-devops-wire.js';

/**
 * The project's wikis (`GET {P}/_apis/wiki/wikis`, one unpaged answer), each named by the git
 * repository behind it: code knowledge reads a wiki through that repository's tree and items.
 */
export function azureDevOpsWikis(ado: AzureDevOpsConnection): Required<Pick<ScmProviderV1, 'listWikis'>> {
  return {
    async *listWikis(scope, options) {
      const { value } = await getJson<AdoList<AdoWiki>>(
        ado,
        `${projectUrl(ado, scope)}/_apis/wiki/wikis`,
        options?.signal,
      );
      for (const wiki of value) {
        const wikiOf: ScmWiki = {
          wikiId: wiki.id,
          name: wiki.name,
          kind: wiki.type === 'codeWiki' ? 'codeWiki' : 'projectWiki',
          repositoryId: wiki.repositoryId,
          mappedPath: normalizeTreePrefix(wiki.mappedPath),
          // A project wiki lists its one branch, `wikiMaster`; older servers may list none.
          branches: (wiki.versions ?? []).map((v) => v.version).filter((v): v is string => Boolean(v)),
        };
        if (wikiOf.kind === 'projectWiki' && wikiOf.branches.length === 0) wikiOf.branches.push(PROJECT_WIKI_BRANCH);
        yield wikiOf;
      }
    },
  };
}

/** The branch a project wiki's repository keeps its pages on. */
export const PROJECT_WIKI_BRANCH = 'wikiMaster';
