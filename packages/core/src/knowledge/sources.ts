import type { Actor } from '../kernel/index.js';
import { MarginError, PageQuery } from '../kernel/index.js';
import { scmFamily } from '../provider-registry/index.js';
import { requireWikiSources } from '../scm/index.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import type { KnowledgeSourceRecord } from './knowledge-records.js';
import { CreateKnowledgeSourceInput } from './schemas.js';

const sourceNotFound = () => MarginError.notFound('Knowledge source not found.');

export const knowledgeSourceView = (s: KnowledgeSourceRecord) => ({
  id: s.id,
  clientId: s.clientId,
  displayName: s.displayName,
  sourceKind: s.sourceKind,
  organizationScopeId: s.organizationScopeId,
  providerProjectKey: s.providerProjectKey,
  canonicalSourceRef: s.canonicalSourceRef,
  sourceDisplayName: s.sourceDisplayName,
  defaultBranch: s.defaultBranch,
  rootPath: s.rootPath,
  symbolMode: s.symbolMode,
  trackedBranches: s.trackedBranches,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

/**
 * A code-knowledge source of the client: the scope must be the client's, the source's provider its
 * connection's family, and a wiki source needs an Azure DevOps (suiteDevOps) scope.
 */
export async function createKnowledgeSource(deps: KnowledgeDeps, actor: Actor, clientId: string, input: unknown) {
  const req = CreateKnowledgeSourceInput.parse(input);
  await deps.authz.requireClient(actor, 'knowledge.manage', clientId);
  const found = await deps.storage.providerScopes.findWithConnection(req.organizationScopeId);
  if (!found || found.scope.clientId !== clientId) {
    throw MarginError.validation('organizationScopeId names no provider scope of this client.', [
      { path: 'organizationScopeId', message: 'names no provider scope of this client' },
    ]);
  }
  const family = found.connection.providerFamily;
  if (req.canonicalSourceRef.provider !== family) {
    throw MarginError.validation(
      `canonicalSourceRef.provider must be ${family}, the family of the scope’s connection.`,
      [{ path: 'canonicalSourceRef.provider', message: `must be ${family}` }],
    );
  }
  if (req.sourceKind === 'adoWiki') requireWikiSources(scmFamily(deps.providers, family));
  const now = deps.clock.now().toISOString();
  const source: KnowledgeSourceRecord = {
    id: deps.ids.uuid(),
    clientId,
    displayName: req.displayName,
    sourceKind: req.sourceKind,
    organizationScopeId: found.scope.id,
    providerProjectKey: req.providerProjectKey,
    canonicalSourceRef: { provider: family, value: req.canonicalSourceRef.value },
    sourceDisplayName: req.sourceDisplayName ?? req.displayName,
    defaultBranch: req.defaultBranch,
    rootPath: req.rootPath ? req.rootPath : '/',
    symbolMode: req.symbolMode ?? 'auto',
    trackedBranches: (req.trackedBranches ?? [{ branchName: req.defaultBranch }]).map((b) => ({
      branchName: b.branchName,
      refreshTriggerMode: b.refreshTriggerMode ?? 'manual',
      miniIndexEnabled: b.miniIndexEnabled ?? false,
    })),
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.knowledgeSources.insert(source);
  return knowledgeSourceView(source);
}

export async function listKnowledgeSources(deps: KnowledgeDeps, actor: Actor, clientId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireClient(actor, 'knowledge.read', clientId);
  const result = await deps.storage.knowledgeSources.listForClient(clientId, page);
  return { items: result.items.map(knowledgeSourceView), nextCursor: result.nextCursor };
}

export async function getKnowledgeSource(deps: KnowledgeDeps, actor: Actor, clientId: string, sourceId: string) {
  await deps.authz.requireClient(actor, 'knowledge.read', clientId);
  const source = await deps.storage.knowledgeSources.findById(sourceId);
  if (!source || source.clientId !== clientId) throw sourceNotFound();
  return knowledgeSourceView(source);
}
