import type { Actor, Clock } from '../kernel/index.js';
import { MarginError, sealedSecretContext, TtlCache } from '../kernel/index.js';
import { isTenantInReach } from '../licensing/index.js';
import type { ProviderRegistry } from '../provider-registry/index.js';
import type { WebhookEventKind } from '../scm-provider/index.js';
import {
  CreateWebhookConfigurationInput,
  DeliveriesQuery,
  PatchWebhookConfigurationInput,
  TriggerListQuery,
} from './schemas.js';
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
import type {
  WebhookConfigurationPatch,
  WebhookConfigurationRecord,
  WebhookDeliveryRecord,
} from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';

/**
 * Where a configuration's deliveries go: `/webhooks/v1/providers/<segment>/<path_key>`, the segment
 * being what its family declares (decisions.md for the built-ins).
 */
export function listenerUrl(
  baseUrl: string,
  config: Pick<WebhookConfigurationRecord, 'provider' | 'pathKey'>,
  registry: ProviderRegistry,
) {
  // A family whose plugin is gone keeps a URL, though nothing answers there until it is back.
  const segment = registry.scm.find((f) => f.family === config.provider)?.receiverSegment ?? config.provider;
  return `${baseUrl.replace(/\/+$/, '')}/webhooks/v1/providers/${segment}/${config.pathKey}`;
}

/**
 * Where listener URLs start, as the host knows it: `MARGIN_PUBLIC_BASE_URL`, or else the address the
 * host listens on (never the request's Host header, which any caller chooses).
 */
export interface ListenerBase {
  baseUrl: string;
  source: 'publicBaseUrl' | 'listenAddress';
}

function listenerWarnings(base: ListenerBase): string[] {
  if (base.source === 'publicBaseUrl') return [];
  const where = base.baseUrl ? `the address this host listens on (${base.baseUrl})` : 'only the path';
  return [
    `MARGIN_PUBLIC_BASE_URL is not set, so listenerUrl uses ${where}, which providers may not reach. Set MARGIN_PUBLIC_BASE_URL to the URL providers post to.`,
  ];
}

const webhookSecretContext = (configurationId: string) =>
  sealedSecretContext('webhook-configuration.secret', configurationId);

const DEFAULT_EVENTS: WebhookEventKind[] = ['pullRequestCreated', 'pullRequestUpdated'];

/** A configuration with its secret opened, as the receiver needs it. Never logged, never returned. */
export interface ReceiverConfiguration {
  config: WebhookConfigurationRecord;
  secret: string;
}

/**
 * The receiver's configuration lookup by path key, with the secret opened, kept briefly so a burst
 * of deliveries costs no database read and no decryption each. This host's own patches and deletes
 * forget the entry at once; another host's take effect within the TTL.
 */
export class WebhookConfigurationCache {
  private readonly byPathKey: TtlCache<string, ReceiverConfiguration | undefined>;

  constructor(
    private readonly deps: Pick<TriggersDeps, 'storage' | 'secrets'>,
    clock: Clock,
    ttlMs: number,
  ) {
    this.byPathKey = new TtlCache(clock, ttlMs, 5_000);
  }

  get(pathKey: string): Promise<ReceiverConfiguration | undefined> {
    return this.byPathKey.get(pathKey, async () => {
      const config = await this.deps.storage.webhookConfigurations.findByPathKey(pathKey);
      if (!config) return undefined;
      // A deactivated client, a deactivated tenant's, or one out of reach (another tenant's, while
      // the installation is Community), receives nothing.
      const client = await this.deps.storage.clients.findById(config.clientId);
      if (!client?.isActive || !(await isTenantInReach(this.deps, client.tenantId))) return undefined;
      if (!(await this.deps.storage.tenants.findById(client.tenantId))?.isActive) return undefined;
      return { config, secret: this.deps.secrets.open(config.sealedSecret, webhookSecretContext(config.id)) };
    });
  }

  forget(pathKey: string): void {
    this.byPathKey.delete(pathKey);
  }

  /** After a client changed (deactivated, say): client changes are rare, so forget everything. */
  forgetAll(): void {
    this.byPathKey.clear();
  }
}

const configurationNotFound = () => MarginError.notFound('Webhook configuration not found.');

export function webhookConfigurationView(
  c: WebhookConfigurationRecord,
  base: ListenerBase,
  registry: ProviderRegistry,
) {
  return {
    id: c.id,
    clientId: c.clientId,
    provider: c.provider,
    organizationScopeId: c.organizationScopeId,
    providerScopePath: c.providerScopePath,
    providerProjectKey: c.providerProjectKey,
    reviewTemperature: c.reviewTemperature,
    enabledEvents: c.enabledEvents,
    repoFilters: c.repoFilters,
    knowledgeSourceScopeMode: c.knowledgeSourceScopeMode,
    knowledgeSourceIds: c.knowledgeSourceIds,
    isActive: c.isActive,
    listenerUrl: listenerUrl(base.baseUrl, c, registry),
    listenerUrlSource: base.source,
    warnings: listenerWarnings(base),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export function deliveryView(d: WebhookDeliveryRecord) {
  return {
    id: d.id,
    receivedAt: d.receivedAt,
    eventType: d.eventType,
    outcome: d.outcome,
    httpStatus: d.httpStatus,
    repositoryId: d.repositoryId,
    pullRequestId: d.pullRequestId,
    sourceBranch: d.sourceBranch,
    targetBranch: d.targetBranch,
    actions: d.actions,
    failureReason: d.failureReason,
  };
}

/**
 * Creates a configuration with a new path key and generated secret. The secret is stored sealed and
 * returned in this response only.
 */
export async function createWebhookConfiguration(deps: TriggersDeps, actor: Actor, input: unknown, base: ListenerBase) {
  const req = CreateWebhookConfigurationInput.parse(input);
  await deps.authz.requireClient(actor, 'triggers.manage', req.clientId);
  const { scope } = await requireScopeForConfiguration(deps, req.clientId, req.organizationScopeId, req.provider);
  const repoFilters = repoFilterRecords(req.repoFilters ?? []);
  checkRepoFilters(repoFilters, req.provider);
  const knowledgeSourceScopeMode = req.knowledgeSourceScopeMode ?? 'allClientSources';
  const knowledgeSourceIds = await checkKnowledgeScope(
    deps,
    req.clientId,
    knowledgeSourceScopeMode,
    req.knowledgeSourceIds ?? [],
  );
  const generatedSecret = deps.ids.randomHex(32);
  const now = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  const config: WebhookConfigurationRecord = {
    id,
    clientId: req.clientId,
    provider: req.provider,
    organizationScopeId: scope.id,
    providerScopePath: scope.scopePath,
    providerProjectKey: req.providerProjectKey,
    reviewTemperature: req.reviewTemperature ?? null,
    enabledEvents: req.enabledEvents ?? DEFAULT_EVENTS,
    repoFilters,
    knowledgeSourceScopeMode,
    knowledgeSourceIds,
    isActive: req.isActive ?? true,
    pathKey: deps.ids.randomHex(16),
    sealedSecret: deps.secrets.seal(generatedSecret, webhookSecretContext(id)),
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.webhookConfigurations.insert(config);
    await auditTriggerConfiguration(deps, tx, actor, {
      kind: 'webhookConfiguration',
      verb: 'created',
      clientId: config.clientId,
      configurationId: id,
    });
  });
  return { ...webhookConfigurationView(config, base, deps.providers), generatedSecret };
}

export async function listWebhookConfigurations(deps: TriggersDeps, actor: Actor, query: unknown, base: ListenerBase) {
  const { clientId, limit, cursor } = TriggerListQuery.parse(query);
  const filter = await listFilterFor(deps, actor, clientId);
  const page = await deps.storage.webhookConfigurations.list(filter, { limit, cursor });
  return {
    items: page.items.map((c) => webhookConfigurationView(c, base, deps.providers)),
    nextCursor: page.nextCursor,
  };
}

async function requireConfiguration(
  deps: TriggersDeps,
  actor: Actor,
  action: 'triggers.read' | 'triggers.manage',
  id: string,
) {
  const found = await deps.storage.webhookConfigurations.findById(id);
  return requireVisible(deps, actor, action, found, configurationNotFound);
}

export async function getWebhookConfiguration(deps: TriggersDeps, actor: Actor, id: string, base: ListenerBase) {
  return webhookConfigurationView(await requireConfiguration(deps, actor, 'triggers.read', id), base, deps.providers);
}

export async function patchWebhookConfiguration(
  deps: TriggersDeps,
  cache: WebhookConfigurationCache,
  actor: Actor,
  id: string,
  input: unknown,
  base: ListenerBase,
) {
  const req = PatchWebhookConfigurationInput.parse(input);
  const current = await requireConfiguration(deps, actor, 'triggers.manage', id);
  const patch: WebhookConfigurationPatch = await commonPatch(deps, current, req);
  if (req.enabledEvents !== undefined) patch.enabledEvents = req.enabledEvents;
  const updated = await deps.storage
    .transaction(async (tx) => {
      const next = await tx.webhookConfigurations.update(id, patch);
      if (!next) throw configurationNotFound();
      await auditTriggerConfiguration(deps, tx, actor, {
        kind: 'webhookConfiguration',
        verb: 'updated',
        clientId: current.clientId,
        configurationId: id,
        request: req,
      });
      return next;
    })
    .finally(() => cache.forget(current.pathKey));
  return webhookConfigurationView(updated, base, deps.providers);
}

export async function deleteWebhookConfiguration(
  deps: TriggersDeps,
  cache: WebhookConfigurationCache,
  actor: Actor,
  id: string,
) {
  const current = await requireConfiguration(deps, actor, 'triggers.manage', id);
  await deps.storage
    .transaction(async (tx) => {
      if (!(await tx.webhookConfigurations.delete(id))) throw configurationNotFound();
      await auditTriggerConfiguration(deps, tx, actor, {
        kind: 'webhookConfiguration',
        verb: 'deleted',
        clientId: current.clientId,
        configurationId: id,
      });
    })
    .finally(() => cache.forget(current.pathKey));
}

export async function listWebhookDeliveries(deps: TriggersDeps, actor: Actor, id: string, query: unknown) {
  const { take } = DeliveriesQuery.parse(query);
  await requireConfiguration(deps, actor, 'triggers.read', id);
  const items = await deps.storage.webhookDeliveries.listForConfiguration(id, take);
  return { items: items.map(deliveryView) };
}
