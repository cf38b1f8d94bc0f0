import { conversationForComment } from '../conversations/index.js';
import { MarginError } from '../kernel/index.js';
import { familyOfSegment } from '../provider-registry/index.js';
import type { NormalizedWebhookEvent, WebhookHeaders } from '../scm-provider/index.js';
import type { DeliveryBatcher } from './delivery-batcher.js';
import { type RejectionBudget, unrecordedAction } from './rejection-budget.js';
import { matchRepoFilters, withinProject } from './repo-filters.js';
import type {
  CrawlConfigurationRecord,
  DeliveryOutcome,
  WebhookConfigurationRecord,
  WebhookDeliveryRecord,
} from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';
import type { WebhookConfigurationCache } from './webhook-configurations.js';

export interface IncomingDelivery {
  /** The provider segment of the path, as sent. */
  segment: string;
  pathKey: string;
  /** Header names lower-cased. */
  headers: WebhookHeaders;
  /** The body exactly as received: signatures cover these bytes. */
  rawBody: Uint8Array;
}

/**
 * What the receiver says to the provider, as data: the delivery `accepted` or `ignored`, or refused
 * with the error code that says how the host answers it (`ERROR_STATUS`, as for thrown errors).
 */
export type ReceiverAnswer =
  | { acknowledged: 'accepted' | 'ignored' }
  | { code: 'validation_failed' | 'unauthenticated' | 'not_found'; error: string };

const PATH_KEY = /^[0-9a-f]{32}$/i;
/** Pull request numbers are stored as 32-bit integers; no provider comes near this. */
const MAX_PR_NUMBER = 2_147_483_647;
const MAX_TEXT = 300;

const notFound = (): ReceiverAnswer => ({
  code: 'not_found',
  error: 'No webhook configuration listens at this address.',
});

/** Provider-controlled text is cut to the column sizes; it is a summary, not a copy. */
const clip = (value: string | undefined, max = MAX_TEXT): string | null =>
  value === undefined || value === '' ? null : value.slice(0, max);

const AUTH_FAILED = 'The delivery did not authenticate with the configuration’s secret.';

/**
 * The public receiver's work on the request path: find the configuration, authenticate the raw body
 * with the family's scheme, parse, classify and check it against the stored scope, then record the
 * delivery in one insert and answer. Jobs are created later by the delivery processor, never here.
 */
export async function receiveWebhook(
  deps: TriggersDeps,
  cache: WebhookConfigurationCache,
  batcher: DeliveryBatcher,
  rejections: RejectionBudget,
  incoming: IncomingDelivery,
): Promise<ReceiverAnswer> {
  const record = (delivery: WebhookDeliveryRecord) =>
    delivery.outcome === 'rejected'
      ? recordRejection(deps, batcher, rejections, delivery)
      : recordDelivery(deps, batcher, delivery);
  const ignore = (delivery: WebhookDeliveryRecord, reason: string) => ignoreDelivery(record, delivery, reason);
  // A family this installation has no adapter for receives nothing.
  const family = familyOfSegment(deps.providers, incoming.segment);
  if (!family || !PATH_KEY.test(incoming.pathKey)) return notFound();
  const found = await cache.get(incoming.pathKey.toLowerCase());
  if (!found?.config.isActive || found.config.provider !== family.family) return notFound();
  const { config, secret } = found;
  const { webhook } = family;

  const now = deps.clock.now().toISOString();
  const base = baseRecord(deps, config, now);

  if (!webhook.authenticate(incoming.headers, incoming.rawBody, secret)) {
    await record({ ...base, outcome: 'rejected', httpStatus: 401, failureReason: AUTH_FAILED });
    return { code: 'unauthenticated', error: AUTH_FAILED };
  }

  let event: NormalizedWebhookEvent;
  try {
    event = webhook.parse(incoming.headers, parseJson(incoming.rawBody));
  } catch (error) {
    if (!MarginError.isInstance(error) || error.code !== 'validation_failed') throw error;
    await record({ ...base, outcome: 'rejected', httpStatus: 400, failureReason: error.message });
    return { code: 'validation_failed', error: error.message };
  }

  const summary: WebhookDeliveryRecord = {
    ...base,
    eventType: clip(event.eventType, 200),
    idempotencyKey: clip(event.idempotencyKey),
  };
  if (event.kind === 'unclassified') {
    return ignore(summary, `The event '${clip(event.eventType, 200)}' does not start reviews.`);
  }
  if (!Number.isSafeInteger(event.pullRequestId) || event.pullRequestId < 1 || event.pullRequestId > MAX_PR_NUMBER) {
    const reason = 'The delivery names no valid pull request number.';
    await record({ ...summary, outcome: 'rejected', httpStatus: 400, failureReason: reason });
    return { code: 'validation_failed', error: reason };
  }
  const described: WebhookDeliveryRecord = {
    ...summary,
    eventKind: event.kind,
    repositoryId: clip(event.repositoryId),
    pullRequestId: event.pullRequestId,
    sourceBranch: clip(event.sourceBranch, 500),
    targetBranch: clip(event.targetBranch, 500),
    headSha: event.headSha && /^[0-9a-f]{7,64}$/i.test(event.headSha) ? event.headSha : null,
  };
  if (!config.enabledEvents.includes(event.kind)) {
    return ignore(described, `The event ${event.kind} is not enabled for this configuration.`);
  }
  const scope = scopeOf(config, event);
  if (!scope.inScope) return ignore(described, scope.reason);
  if (event.status !== 'open') return ignore(described, `The pull request is ${event.status}.`);

  let accepted: WebhookDeliveryRecord = {
    ...described,
    outcome: 'accepted',
    actions: [],
    processingState: 'pending',
    processAfter: now,
  };
  if (event.kind === 'pullRequestCommented' && event.comment) {
    const found = await conversationForComment(
      deps,
      { ...originOf(config), kind: 'webhook' },
      family,
      { repositoryId: event.repositoryId, pullRequestId: event.pullRequestId },
      event.comment,
    );
    // A mention is the conversation worker's: the delivery queues no automatic review besides.
    if ('record' in found) {
      accepted = {
        ...accepted,
        actions: [`conversationQueued ${found.record.id}`],
        processingState: 'done',
        processAfter: null,
        conversation: found.record,
      };
    }
  }
  if ((await record(accepted)) === 'duplicate') return { acknowledged: 'ignored' };
  if (accepted.conversation) {
    deps.events.emit('conversation.queued', { conversationId: accepted.conversation.id, clientId: config.clientId });
  }
  return { acknowledged: 'accepted' };
}

/** Where a configuration's comments come from, for the conversations they open. */
export function originOf(config: WebhookConfigurationRecord | CrawlConfigurationRecord) {
  return {
    clientId: config.clientId,
    configurationId: config.id,
    organizationScopeId: config.organizationScopeId,
    providerScopePath: config.providerScopePath,
    providerProjectKey: config.providerProjectKey,
    configuredAt: config.createdAt,
  };
}

function baseRecord(deps: TriggersDeps, config: WebhookConfigurationRecord, now: string): WebhookDeliveryRecord {
  return {
    id: deps.ids.uuid(),
    configurationId: config.id,
    clientId: config.clientId,
    receivedAt: now,
    eventType: null,
    eventKind: null,
    idempotencyKey: null,
    outcome: 'ignored',
    httpStatus: 200,
    repositoryId: null,
    pullRequestId: null,
    sourceBranch: null,
    targetBranch: null,
    headSha: null,
    actions: [],
    failureReason: null,
    processingState: null,
    processAfter: null,
    leaseOwner: null,
    attempts: 0,
  };
}

/**
 * The stored scope decides, whatever the payload claims: the project (when the payload names one),
 * the repository filters and, when the payload carries it, the target branch. A comment event may
 * lack the branch; the processor checks it once it has read the pull request.
 */
function scopeOf(config: WebhookConfigurationRecord, event: Extract<NormalizedWebhookEvent, { repositoryId: string }>) {
  if (event.projectKey !== undefined && !withinProject(config.providerProjectKey, event.projectKey)) {
    return {
      inScope: false as const,
      reason: `The repository belongs to '${event.projectKey.slice(0, 200)}', not to the configured project.`,
    };
  }
  return matchRepoFilters(config.repoFilters, event.repositoryId, event.targetBranch || undefined);
}

async function ignoreDelivery(
  record: (delivery: WebhookDeliveryRecord) => Promise<unknown>,
  delivery: WebhookDeliveryRecord,
  reason: string,
): Promise<ReceiverAnswer> {
  await record({ ...delivery, outcome: 'ignored', httpStatus: 200, failureReason: reason });
  return { acknowledged: 'ignored' };
}

/** A rejection is stored within the configuration's budget; past it, only counted. */
async function recordRejection(
  deps: TriggersDeps,
  batcher: DeliveryBatcher,
  rejections: RejectionBudget,
  delivery: WebhookDeliveryRecord,
) {
  const decision = rejections.take(delivery.configurationId);
  if (!decision.record) return 'unrecorded' as const;
  const actions = decision.unrecordedBefore > 0 ? [unrecordedAction(decision.unrecordedBefore)] : delivery.actions;
  return recordDelivery(deps, batcher, { ...delivery, actions });
}

async function recordDelivery(deps: TriggersDeps, batcher: DeliveryBatcher, delivery: WebhookDeliveryRecord) {
  const result = await batcher.record({ ...delivery, failureReason: delivery.failureReason?.slice(0, 1000) ?? null });
  const outcome: DeliveryOutcome = result === 'duplicate' ? 'ignored' : delivery.outcome;
  deps.events.emit('webhook.delivery', { configurationId: delivery.configurationId, deliveryId: delivery.id, outcome });
  return result;
}

function parseJson(raw: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch {
    throw MarginError.validation('The delivery body is not valid JSON.');
  }
}
