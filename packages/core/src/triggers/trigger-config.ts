import { type AuditRepositories, changedFields } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { readLicensing } from '../licensing/index.js';
import type { JobOptions, JobTrigger, ReviewRequest } from '../reviewing/index.js';
import type { OpenedScmConnection, ProviderConnectionRecord, ProviderScopeRecord } from '../scm/index.js';
import type { ProviderFamily, PullRequestSnapshot } from '../scm-provider/index.js';
import type { CommonConfigurationPatchInput } from './schemas.js';
import type {
  CrawlConfigurationPatch,
  KnowledgeScopeMode,
  RepoFilter,
  TriggerConfigurationBase,
  TriggerListFilter,
  WebhookConfigurationPatch,
} from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';

/** The client's scope with its connection, for a configuration being saved; 400 naming the field otherwise. */
export async function requireScopeForConfiguration(
  deps: TriggersDeps,
  clientId: string,
  organizationScopeId: string,
  provider?: ProviderFamily,
): Promise<{ scope: ProviderScopeRecord; connection: ProviderConnectionRecord }> {
  const found = await deps.storage.providerScopes.findWithConnection(organizationScopeId);
  if (!found || found.scope.clientId !== clientId) {
    throw MarginError.validation('organizationScopeId names no provider scope of this client.', [
      { path: 'organizationScopeId', message: 'names no provider scope of this client' },
    ]);
  }
  if (provider !== undefined && found.connection.providerFamily !== provider) {
    throw MarginError.validation(
      `provider '${provider}' does not match the scope’s connection family '${found.connection.providerFamily}'.`,
      [
        {
          path: 'provider',
          message: `must be ${found.connection.providerFamily}, the family of the scope’s connection`,
        },
      ],
    );
  }
  return found;
}

/** Repository filters must name repositories of the configuration's own family. */
export function checkRepoFilters(filters: readonly RepoFilter[], family: ProviderFamily): void {
  const issues = filters.flatMap((f, i) =>
    f.canonicalSourceRef.provider === family
      ? []
      : [{ path: `repoFilters[${i}].canonicalSourceRef.provider`, message: `must be ${family}` }],
  );
  if (issues.length > 0) {
    throw MarginError.validation(`Invalid request: ${issues[0]?.path}: ${issues[0]?.message}`, issues);
  }
}

/**
 * The knowledge scope as stored: `selectedSources` needs at least one id, and every id must be a
 * source of the client; the other modes keep no ids.
 */
export async function checkKnowledgeScope(
  deps: TriggersDeps,
  clientId: string,
  mode: KnowledgeScopeMode,
  ids: readonly string[],
): Promise<string[]> {
  if (mode !== 'selectedSources') return [];
  const unique = [...new Set(ids)];
  if (unique.length === 0) {
    throw MarginError.validation('knowledgeSourceScopeMode selectedSources needs at least one knowledge source id.', [
      { path: 'knowledgeSourceIds', message: 'must name at least one knowledge source with selectedSources' },
    ]);
  }
  const missing = await deps.storage.knowledgeSources.findMissing(clientId, unique);
  if (missing.length > 0) {
    throw MarginError.validation(`Unknown knowledge source ids: ${missing.join(', ')}.`, [
      { path: 'knowledgeSourceIds', message: `are not knowledge sources of this client: ${missing.join(', ')}` },
    ]);
  }
  return unique;
}

export function repoFilterRecords(
  filters: ReadonlyArray<{
    repositoryName: string | null;
    displayName: string | null;
    canonicalSourceRef: { provider: ProviderFamily; value: string };
    targetBranchPatterns: string[];
  }>,
): RepoFilter[] {
  return filters.map((f) => ({
    repositoryName: f.repositoryName,
    displayName: f.displayName,
    canonicalSourceRef: { provider: f.canonicalSourceRef.provider, value: f.canonicalSourceRef.value },
    targetBranchPatterns: [...new Set(f.targetBranchPatterns)],
  }));
}

/**
 * The checked patch of the fields webhook and crawl configurations share: repository filters of the
 * configuration's family, a knowledge scope of the client's own sources; `updatedAt` stamped.
 */
export async function commonPatch(
  deps: TriggersDeps,
  current: TriggerConfigurationBase,
  req: CommonConfigurationPatchInput,
): Promise<CommonPatch> {
  const patch: CommonPatch = { updatedAt: deps.clock.now().toISOString() };
  if (req.isActive !== undefined) patch.isActive = req.isActive;
  if (req.reviewTemperature !== undefined) patch.reviewTemperature = req.reviewTemperature;
  if (req.repoFilters !== undefined) {
    patch.repoFilters = repoFilterRecords(req.repoFilters);
    checkRepoFilters(patch.repoFilters, current.provider);
  }
  if (req.knowledgeSourceScopeMode !== undefined || req.knowledgeSourceIds !== undefined) {
    const mode = req.knowledgeSourceScopeMode ?? current.knowledgeSourceScopeMode;
    patch.knowledgeSourceScopeMode = mode;
    patch.knowledgeSourceIds = await checkKnowledgeScope(
      deps,
      current.clientId,
      mode,
      req.knowledgeSourceIds ?? current.knowledgeSourceIds,
    );
  }
  return patch;
}

type CommonPatch = WebhookConfigurationPatch & CrawlConfigurationPatch;

/** What a configuration snapshots onto every job it queues. */
export function jobOptionsOf(config: TriggerConfigurationBase): JobOptions {
  return {
    ...(config.reviewTemperature === null ? {} : { reviewTemperature: config.reviewTemperature }),
    knowledgeSourceScopeMode: config.knowledgeSourceScopeMode,
    knowledgeSourceIds: [...config.knowledgeSourceIds],
    configurationId: config.id,
    providerScopePath: config.providerScopePath,
    providerProjectKey: config.providerProjectKey,
  };
}

/** A review request for a pull request as the provider reported it, under a configuration. */
export function reviewRequestFor(
  config: TriggerConfigurationBase,
  { connection, family }: Pick<OpenedScmConnection, 'connection' | 'family'>,
  pr: Pick<PullRequestSnapshot, 'ref' | 'revision' | 'repositoryName'>,
  trigger: JobTrigger,
  submittedByUserId: string | null,
): ReviewRequest {
  return {
    clientId: config.clientId,
    trigger,
    submittedByUserId,
    provider: config.provider,
    hostBaseUrl: connection.hostBaseUrl,
    repository: {
      externalRepositoryId: pr.ref.repositoryId,
      ownerOrNamespace: config.providerProjectKey,
      projectPath: pr.repositoryName || pr.ref.repositoryId,
    },
    codeReview: {
      platform: family.codeReviewPlatform,
      externalReviewId: String(pr.ref.pullRequestId),
      number: pr.ref.pullRequestId,
    },
    reviewRevision: {
      headSha: pr.revision.headSha,
      baseSha: pr.revision.baseSha,
      providerRevisionId: pr.revision.revisionId,
    },
    options: jobOptionsOf(config),
  };
}

/**
 * Which configurations a listing shows: one client's (ClientUser on it), or those of every client the
 * caller has a role on; Community installations reach only the System tenant.
 */
export async function listFilterFor(
  deps: TriggersDeps,
  actor: Actor,
  clientId: string | undefined,
): Promise<TriggerListFilter> {
  if (clientId !== undefined) {
    await deps.authz.requireClient(actor, 'triggers.read', clientId);
    return { clientId };
  }
  const filter: TriggerListFilter = {};
  if ((await readLicensing(deps)).edition === 'Community') filter.withinTenants = [SYSTEM_TENANT_ID];
  if (actor.globalRole !== 'platformAdmin') {
    const memberships = await deps.storage.memberships.forUser(actor.userId);
    filter.visibility = {
      clientIds: memberships.clients.map((m) => m.clientId),
      tenantIds: memberships.tenants.filter((m) => m.role === 'TenantAdministrator').map((m) => m.tenantId),
    };
  }
  return filter;
}

/**
 * A configuration by id, checked for the action on its client. Unknown, or on a client the caller
 * cannot see: 404 (never confirms it exists).
 */
export async function requireVisible<T extends TriggerConfigurationBase>(
  deps: TriggersDeps,
  actor: Actor,
  action: 'triggers.read' | 'triggers.manage',
  found: T | undefined,
  notFound: () => MarginError,
): Promise<T> {
  if (!found) throw notFound();
  try {
    await deps.authz.requireClient(actor, action, found.clientId);
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'not_found') throw notFound();
    throw error;
  }
  return found;
}

/**
 * Records a change to a webhook or crawl configuration in the audit trail, inside the change's
 * transaction. The tenant is read there too, so the entry names the client's tenant as stored.
 */
export async function auditTriggerConfiguration(
  deps: TriggersDeps,
  tx: AuditRepositories & Pick<TriggersDeps['storage'], 'clients'>,
  actor: Actor,
  change: {
    kind: 'webhookConfiguration' | 'crawlConfiguration';
    verb: 'created' | 'updated' | 'deleted';
    clientId: string;
    configurationId: string;
    /** For an update, the request: only its field names are recorded. */
    request?: Record<string, unknown>;
  },
): Promise<void> {
  const client = await tx.clients.findById(change.clientId);
  await deps.audit.record(tx, actor, {
    tenantId: client?.tenantId ?? null,
    clientId: change.clientId,
    verb: change.verb,
    resourceType: change.kind,
    resourceId: change.configurationId,
    summary: change.request ? changedFields(change.request) : `${change.verb} the configuration`,
  });
}
