import { MarginError } from '../kernel/index.js';
import { announceQueued, requestReview } from '../reviewing/index.js';
import { type OpenedScmScope, scopeWithConnection } from '../scm/index.js';
import type { PullRequestSnapshot } from '../scm-provider/index.js';
import { refusalAction } from './refusal-actions.js';
import { matchRepoFilters, outsideConfiguredOwner } from './repo-filters.js';
import { reviewRequestFor } from './trigger-config.js';
import type { DeliveryProcessingResult, WebhookDeliveryRecord } from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';

/** Tries per delivery before it is recorded as failed (provider outages, lost workers). */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** Wait before the next try after a provider could not be reached. */
export const DELIVERY_RETRY_MS = 30_000;

export interface ProcessRequest {
  owner: string;
  leaseMs: number;
  limit: number;
}

const done = (
  outcome: DeliveryProcessingResult['outcome'],
  actions: string[],
  failureReason: string | null = null,
): DeliveryProcessingResult => ({ outcome, actions, failureReason, processingState: 'done', processAfter: null });

/**
 * One round of the delivery processor: leases pending deliveries (several hosts never take the same
 * one; a lost worker's lease runs out and another host takes it), turns each into at most one job,
 * and records what was done on the delivery. Returns how many were handled.
 */
export async function processPendingDeliveries(deps: TriggersDeps, request: ProcessRequest): Promise<number> {
  const now = deps.clock.now().toISOString();
  const claimed = await deps.storage.webhookDeliveries.claimPending({ ...request, now });
  for (const delivery of claimed) {
    const result = await processDelivery(deps, delivery);
    await deps.storage.webhookDeliveries.finishProcessing(delivery.id, request.owner, result);
  }
  return claimed.length;
}

async function processDelivery(deps: TriggersDeps, delivery: WebhookDeliveryRecord): Promise<DeliveryProcessingResult> {
  if (delivery.attempts > MAX_DELIVERY_ATTEMPTS) {
    return done('failed', delivery.actions, `Gave up after ${MAX_DELIVERY_ATTEMPTS} attempts.`);
  }
  const config = await deps.storage.webhookConfigurations.findById(delivery.configurationId);
  if (!config) return done('failed', [], 'The webhook configuration no longer exists.');
  if (!config.isActive)
    return done('ignored', ['skipped: configuration deactivated'], 'The configuration was deactivated.');
  const client = await deps.storage.clients.findById(config.clientId);
  if (!client?.isActive) return done('ignored', ['skipped: client deactivated'], 'The client was deactivated.');
  if (!(await deps.storage.tenants.findById(client.tenantId))?.isActive)
    return done('ignored', ['skipped: tenant deactivated'], 'The client’s tenant was deactivated.');
  if (delivery.repositoryId === null || delivery.pullRequestId === null) {
    return done('failed', [], 'The delivery names no pull request.');
  }

  let opened: OpenedScmScope;
  try {
    opened = await scopeWithConnection(deps, config.clientId, config.organizationScopeId);
  } catch (error) {
    if (!MarginError.isInstance(error)) throw error;
    return done('failed', [], `The configured provider scope no longer resolves: ${error.message}`);
  }

  let pr: PullRequestSnapshot;
  try {
    pr = await opened.provider.getPullRequest({
      scopePath: opened.scope.scopePath,
      projectKey: config.providerProjectKey,
      repositoryId: delivery.repositoryId,
      pullRequestId: delivery.pullRequestId,
    });
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'not_found') {
      return done('failed', [], 'The provider reports no such pull request.');
    }
    return retryOrFail(deps, delivery, error);
  }

  // The provider's answer is authoritative: the owner, scope and state are checked again on it.
  const outside = outsideConfiguredOwner(opened.family, config, pr.repositoryOwner);
  if (outside) return done('ignored', ['skipped: outside the configured scope'], outside);
  if (pr.status !== 'open')
    return done('ignored', [`skipped: pull request ${pr.status}`], `The pull request is ${pr.status}.`);
  const scope = matchRepoFilters(config.repoFilters, pr.ref.repositoryId, pr.targetBranch);
  if (!scope.inScope) return done('ignored', ['skipped: outside the configured scope'], scope.reason);
  if (!pr.revision.headSha || !pr.revision.baseSha) {
    return done('failed', [], 'The provider reported the pull request without commits.');
  }

  try {
    const result = await requestReview(deps, reviewRequestFor(config, opened, pr, 'webhook', null));
    if ('refused' in result && result.refused === 'oneAtATime') return waitForTurn(deps);
    if ('refused' in result) return done('accepted', [refusalAction(result)]);
    announceQueued(deps, result.queued);
    return done('accepted', [`jobQueued ${result.queued.id}`]);
  } catch (error) {
    return retryOrFail(deps, delivery, error);
  }
}

/**
 * Without `parallel-review-execution` a review is refused while another is queued or running. A
 * webhook's review is not dropped for that: the delivery waits and tries again (reading the pull
 * request afresh, so it reviews the newest revision), without using up its attempts.
 */
function waitForTurn(deps: TriggersDeps): DeliveryProcessingResult {
  return {
    outcome: 'accepted',
    actions: ['waiting: another review is queued or running (one at a time without parallel-review-execution)'],
    failureReason: null,
    processingState: 'pending',
    processAfter: new Date(deps.clock.now().getTime() + DELIVERY_RETRY_MS).toISOString(),
    refundAttempt: true,
  };
}

/** A provider outage or a storage hiccup: try again later, until the attempts run out. */
function retryOrFail(deps: TriggersDeps, delivery: WebhookDeliveryRecord, error: unknown): DeliveryProcessingResult {
  const reason = MarginError.isInstance(error) ? error.message : 'An internal error occurred.';
  if (delivery.attempts >= MAX_DELIVERY_ATTEMPTS) {
    return done('failed', [], `${reason} (gave up after ${delivery.attempts} attempts)`);
  }
  return {
    outcome: 'accepted',
    actions: [`retrying: ${reason}`.slice(0, 500)],
    failureReason: null,
    processingState: 'pending',
    processAfter: new Date(deps.clock.now().getTime() + DELIVERY_RETRY_MS).toISOString(),
  };
}
