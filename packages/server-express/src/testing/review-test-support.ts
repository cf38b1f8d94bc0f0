/**
 * Test support for reviews through the stock host: a scripted OpenAI-compatible model on loopback,
 * a client set up end to end (provider connection and scope on a provider fake, an active AI
 * connection bound to `reviewDefault`, a webhook configuration), and — from the CLI's test support,
 * which shares them — a pull request scenario and the model's scripted answers.
 */
import { ReviewWorker, silentLogger } from '@margin/core';
import { type ReviewEngineV1, SYSTEM_TENANT_ID } from '@margin/core/spec';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import type { TestDialect } from '@margin/storage-knex/testing';
import { eventually, startTestHost, type TestApi, type TestHost } from './index.js';
import { type ScmFakes, startScmFakes } from './scm-test-support.js';
import { FACTS, type FamilyName, scopedClient } from './triggers-test-support.js';

export { billingScenario, confirmAll, findingsAnswer, isVerifying, systemOf, userOf } from '@margin/cli/testing';

export interface ReviewHarness {
  fakes: ScmFakes;
  model: FakeChatModel;
  host: TestHost;
  admin: TestApi;
  close(): Promise<void>;
}

/**
 * The four provider fakes, the model fake and a stock host that reaches them (private egress
 * allowed, the worker and the delivery processor polling fast), with the admin signed in. `env`
 * is laid over that host's environment (`WORKER_ENABLED: 'false'` for tests that run the queue
 * themselves with `runQueuedJob`). The host builds its adapters from that environment, as in
 * production, so settings such as `MARGIN_AI_TIMEOUT_SECONDS` reach them.
 */
export async function startReviewHarness(
  options: { env?: Record<string, string>; dialect?: TestDialect; reviewEngine?: ReviewEngineV1 } = {},
): Promise<ReviewHarness> {
  const fakes = await startScmFakes({ allowPrivateEgress: true });
  const model = await startFakeChatModel();
  const host = await startTestHost({
    dialect: options.dialect,
    reviewEngine: options.reviewEngine,
    registryBase: fakes.registryBase,
    env: {
      WORKER_POLL_INTERVAL_MILLISECONDS: '50',
      WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: '50',
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      ...options.env,
    },
  });
  return {
    fakes,
    model,
    host,
    admin: await host.admin(),
    async close() {
      await host.close();
      await model.close();
      await fakes.close();
    },
  };
}

/**
 * Runs the queue with a worker on the host's core until the job ends, then stops it: for hosts
 * started with `WORKER_ENABLED: 'false'`, so a test decides when a queued job runs.
 */
export async function runQueuedJob(host: TestHost, admin: TestApi, jobId: string) {
  const worker = new ReviewWorker({
    core: host.core,
    logger: silentLogger,
    enabled: true,
    maxConcurrentJobs: 1,
    pollIntervalMs: 20,
    leaseMs: 60_000,
  });
  worker.start();
  try {
    return await eventually(async () => {
      const res = await admin.get(`/reviewing/jobs/${jobId}/status`);
      return ['queued', 'running'].includes(res.body.status) ? undefined : res.body;
    }, 20_000);
  } finally {
    await worker.stop();
  }
}

/** A client reviewing pull requests of the family's fake repository with the scripted model. */
export async function reviewingClient(
  admin: TestApi,
  fakes: ScmFakes,
  family: FamilyName,
  model: FakeChatModel,
  name = `Reviews on ${family}`,
) {
  const scoped = await scopedClient(admin, fakes, family, name, SYSTEM_TENANT_ID);
  const ai = await admin.post(
    `/clients/${scoped.clientId}/ai-connections`,
    model.profile({ model: { maxContextTokens: 32_768 } }),
  );
  if (ai.status !== 201) throw new Error(`ai connection: ${ai.status} ${JSON.stringify(ai.body)}`);
  const verified = await admin.post(`/clients/${scoped.clientId}/ai-connections/${ai.body.id}/verify`);
  if (verified.body.verification?.status !== 'verified' && verified.body.status !== 'verified') {
    throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
  }
  const activated = await admin.post(`/clients/${scoped.clientId}/ai-connections/${ai.body.id}/activate`);
  if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${JSON.stringify(activated.body)}`);
  const facts = FACTS[family];
  const webhook = await admin.post('/admin/webhook-configurations', {
    clientId: scoped.clientId,
    provider: facts.provider,
    organizationScopeId: scoped.scopeId,
    providerProjectKey: facts.projectKey,
    enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
    repoFilters: [],
  });
  if (webhook.status !== 201)
    throw new Error(`webhook configuration: ${webhook.status} ${JSON.stringify(webhook.body)}`);
  return {
    ...scoped,
    aiConnectionId: ai.body.id as string,
    webhook: webhook.body as { id: string; listenerUrl: string; generatedSecret: string },
    coordinates: (pullRequestId: number) => ({
      providerScopePath: scoped.scopePath,
      providerProjectKey: facts.projectKey,
      repositoryId: facts.repositoryId,
      pullRequestId,
    }),
  };
}
