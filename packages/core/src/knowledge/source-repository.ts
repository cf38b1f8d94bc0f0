import { MarginError } from '../kernel/index.js';
import { scopeWithConnection } from '../scm/index.js';
import type { RepositoryRef, ScmProviderV1 } from '../scm-provider/index.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import type { KnowledgeSourceRecord } from './knowledge-records.js';

/** A source's repository, reached through its scope's connection. */
export interface SourceRepository {
  provider: ScmProviderV1;
  ref: RepositoryRef;
}

export async function openSourceRepository(
  deps: Pick<KnowledgeDeps, 'storage' | 'secrets' | 'providers'>,
  source: KnowledgeSourceRecord,
): Promise<SourceRepository> {
  const opened = await scopeWithConnection(deps, source.clientId, source.organizationScopeId).catch((error) => {
    if (MarginError.isInstance(error) && error.code === 'not_found') {
      throw MarginError.conflict('The knowledge source’s provider scope no longer exists.');
    }
    throw error;
  });
  return {
    provider: opened.provider,
    ref: {
      scopePath: opened.scope.scopePath,
      projectKey: source.providerProjectKey,
      repositoryId: source.canonicalSourceRef.value,
    },
  };
}
