import { createMarginClient } from '@margin/sdk-client';
import type { ProvisionOptions, ProvisionReport } from './provision-options.js';
import { reviewOnce } from './review.js';
import { ensureAiConnection, ensureReviewModel } from './setup-ai.js';
import { ensureClient } from './setup-client.js';
import { ensureScmConnection } from './setup-source-control.js';
import { Steps } from './steps.js';

export * from './provision-options.js';
export { formatReport } from './report.js';

/**
 * Brings one client's setup to the state `options` describe: client, source-control connection
 * (verified), AI connection (verified, active), a logical model with `reviewDefault` mapped to it,
 * and optionally one review of a pull request. Each step finds before it creates, so a second run
 * with the same options creates and changes nothing. Stops with a `ProvisioningError` when a
 * connection fails verification, or a `MarginApiError` subclass when the API refuses a call.
 */
export async function provision(options: ProvisionOptions): Promise<ProvisionReport> {
  const margin = createMarginClient({ baseUrl: options.baseUrl, credentials: options.credentials, ca: options.ca });
  const steps = new Steps(options.log);

  const clientId = await ensureClient(margin, options.client, steps);
  const scmConnectionId = await ensureScmConnection(margin, clientId, options.sourceControl, steps);
  const model = await ensureAiConnection(margin, clientId, options.ai, steps);
  await ensureReviewModel(margin, clientId, options.logicalModelName, model, steps);
  const review = options.review
    ? await reviewOnce(margin, clientId, options.sourceControl, options.review, options.wait, steps)
    : undefined;

  return {
    clientId,
    scmConnectionId,
    aiConnectionId: model.connectionId,
    logicalModelName: options.logicalModelName,
    steps: steps.list,
    review,
  };
}
