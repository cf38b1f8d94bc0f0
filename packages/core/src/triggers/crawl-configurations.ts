import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { requireCapability } from '../licensing/index.js';
import { CreateCrawlConfigurationInput, PatchCrawlConfigurationInput, TriggerListQuery } from './schemas.js';
import {
  auditTriggerConfiguration,
  checkKnowledgeScope,
  checkRepoFilters,
  commonPatch,
  listFilterFor,
  repoFilterRecords,
  requireScopeForConfiguration,
  requireVisible,
} from './trigger-config.js';
import type { CrawlConfigurationPatch, CrawlConfigurationRecord } from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';

export const DEFAULT_CRAWL_INTERVAL_SECONDS = 60;

const configurationNotFound = () => MarginError.notFound('Crawl configuration not found.');
const CAPABILITY = 'crawl-configs';

const plus = (at: string, seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();

export function crawlConfigurationView(c: CrawlConfigurationRecord) {
  return {
    id: c.id,
    clientId: c.clientId,
    provider: c.provider,
    organizationScopeId: c.organizationScopeId,
    providerScopePath: c.providerScopePath,
    providerProjectKey: c.providerProjectKey,
    crawlIntervalSeconds: c.crawlIntervalSeconds,
    reviewTemperature: c.reviewTemperature,
    repoFilters: c.repoFilters,
    knowledgeSourceScopeMode: c.knowledgeSourceScopeMode,
    knowledgeSourceIds: c.knowledgeSourceIds,
    isActive: c.isActive,
    nextCrawlAt: c.nextCrawlAt,
    lastCrawledAt: c.lastCrawledAt,
    lastCrawlOutcome: c.lastCrawlOutcome,
    lastCrawlError: c.lastCrawlError,
    lastCrawlCounts: c.lastCrawlCounts,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** Every crawl-configuration endpoint, reads included, needs `crawl-configs` (409 license_required). */
export async function createCrawlConfiguration(deps: TriggersDeps, actor: Actor, input: unknown) {
  const req = CreateCrawlConfigurationInput.parse(input);
  await deps.authz.requireClient(actor, 'triggers.manage', req.clientId);
  await requireCapability(deps, CAPABILITY);
  const { scope, connection } = await requireScopeForConfiguration(deps, req.clientId, req.organizationScopeId);
  const provider = connection.providerFamily;
  const repoFilters = repoFilterRecords(req.repoFilters ?? []);
  checkRepoFilters(repoFilters, provider);
  const knowledgeSourceScopeMode = req.knowledgeSourceScopeMode ?? 'allClientSources';
  const knowledgeSourceIds = await checkKnowledgeScope(
    deps,
    req.clientId,
    knowledgeSourceScopeMode,
    req.knowledgeSourceIds ?? [],
  );
  const now = deps.clock.now().toISOString();
  const config: CrawlConfigurationRecord = {
    id: deps.ids.uuid(),
    clientId: req.clientId,
    provider,
    organizationScopeId: scope.id,
    providerScopePath: scope.scopePath,
    providerProjectKey: req.providerProjectKey,
    reviewTemperature: req.reviewTemperature ?? null,
    repoFilters,
    knowledgeSourceScopeMode,
    knowledgeSourceIds,
    isActive: req.isActive ?? true,
    crawlIntervalSeconds: req.crawlIntervalSeconds ?? DEFAULT_CRAWL_INTERVAL_SECONDS,
    // Due at once: the first crawl runs at the scheduler's next round.
    nextCrawlAt: now,
    lastCrawledAt: null,
    lastCrawlOutcome: null,
    lastCrawlError: null,
    lastCrawlCounts: null,
    leaseOwner: null,
    leaseExpiresAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.crawlConfigurations.insert(config);
    await auditTriggerConfiguration(deps, tx, actor, {
      kind: 'crawlConfiguration',
      verb: 'created',
      clientId: config.clientId,
      configurationId: config.id,
    });
  });
  return crawlConfigurationView(config);
}

export async function listCrawlConfigurations(deps: TriggersDeps, actor: Actor, query: unknown) {
  const { clientId, limit, cursor } = TriggerListQuery.parse(query);
  const filter = await listFilterFor(deps, actor, clientId);
  await requireCapability(deps, CAPABILITY);
  const page = await deps.storage.crawlConfigurations.list(filter, { limit, cursor });
  return { items: page.items.map(crawlConfigurationView), nextCursor: page.nextCursor };
}

async function requireConfiguration(
  deps: TriggersDeps,
  actor: Actor,
  action: 'triggers.read' | 'triggers.manage',
  id: string,
) {
  const found = await deps.storage.crawlConfigurations.findById(id);
  const config = await requireVisible(deps, actor, action, found, configurationNotFound);
  await requireCapability(deps, CAPABILITY);
  return config;
}

export async function getCrawlConfiguration(deps: TriggersDeps, actor: Actor, id: string) {
  return crawlConfigurationView(await requireConfiguration(deps, actor, 'triggers.read', id));
}

export async function patchCrawlConfiguration(deps: TriggersDeps, actor: Actor, id: string, input: unknown) {
  const req = PatchCrawlConfigurationInput.parse(input);
  const current = await requireConfiguration(deps, actor, 'triggers.manage', id);
  const patch: CrawlConfigurationPatch = await commonPatch(deps, current, req);
  if (req.crawlIntervalSeconds !== undefined && req.crawlIntervalSeconds !== current.crawlIntervalSeconds) {
    patch.crawlIntervalSeconds = req.crawlIntervalSeconds;
    // The new interval counts from the last crawl (or now, before the first).
    patch.nextCrawlAt = current.lastCrawledAt ? plus(current.lastCrawledAt, req.crawlIntervalSeconds) : patch.updatedAt;
  }
  const updated = await deps.storage.transaction(async (tx) => {
    const next = await tx.crawlConfigurations.update(id, patch);
    if (!next) throw configurationNotFound();
    await auditTriggerConfiguration(deps, tx, actor, {
      kind: 'crawlConfiguration',
      verb: 'updated',
      clientId: current.clientId,
      configurationId: id,
      request: req,
    });
    return next;
  });
  return crawlConfigurationView(updated);
}

export async function deleteCrawlConfiguration(deps: TriggersDeps, actor: Actor, id: string) {
  const current = await requireConfiguration(deps, actor, 'triggers.manage', id);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.crawlConfigurations.delete(id))) throw configurationNotFound();
    await auditTriggerConfiguration(deps, tx, actor, {
      kind: 'crawlConfiguration',
      verb: 'deleted',
      clientId: current.clientId,
      configurationId: id,
    });
  });
}

export { plus as addSeconds };
