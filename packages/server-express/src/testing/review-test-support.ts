/**
 * Test support for reviews through the stock host: a scripted OpenAI-compatible model on loopback,
 * a client set up end to end (provider connection and scope on a provider fake, an active AI
 * connection bound to `reviewDefault`, a webhook configuration), and a pull request scenario.
 */
import { ReviewWorker, silentLogger } from '@margin/core';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import type { PullRequestScenario } from '@margin/core/testing';
import {
  type FakeChatAnswer,
  type FakeChatModel,
  type FakeChatRequest,
  startFakeChatModel,
} from '@margin/providers/testing';
import { eventually, startTestHost, type TestApi, type TestHost } from './index.js';
import { type ScmFakes, startScmFakes } from './scm-test-support.js';
import { FACTS, type FamilyName, scopedClient } from './triggers-test-support.js';

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
export async function startReviewHarness(options: { env?: Record<string, string> } = {}): Promise<ReviewHarness> {
  const fakes = await startScmFakes({ allowPrivateEgress: true });
  const model = await startFakeChatModel();
  const host = await startTestHost({
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

const text = (request: FakeChatRequest, role: string) =>
  request.messages
    .filter((m) => m.role === role)
    .map((m) => String(m.content ?? ''))
    .join('\n');

/** What the engine asked: its system prompt and the user turns. */
export const systemOf = (request: FakeChatRequest) => text(request, 'system');
export const userOf = (request: FakeChatRequest) => text(request, 'user');
export const isVerifying = (request: FakeChatRequest) => systemOf(request).startsWith('You check findings');

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

const numbered = (n: number, f: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => f(i + 1)).join('\n')}\n`;

/**
 * A pull request with a two-hunk change, an added file, a lock file, a deleted file and a binary:
 * `src/billing.ts` line 42 becomes `  const total = price * qty;`, line 50 `  return total / count;`.
 */
export function billingScenario(number: number, headDigit = 'e'): PullRequestScenario {
  return {
    number,
    title: 'Compute invoice totals',
    description: 'Totals are now computed from price and quantity.',
    sourceBranch: `feature/totals-${number}`,
    targetBranch: 'main',
    headSha: headDigit.repeat(40),
    baseSha: 'd'.repeat(40),
    files: [
      {
        path: 'src/billing.ts',
        changeType: 'modified',
        oldText: numbered(60, (i) => `  step(${i});`),
        newText: numbered(60, (i) =>
          i === 42 ? '  const total = price * qty;' : i === 50 ? '  return total / count;' : `  step(${i});`,
        ),
      },
      { path: 'src/tax.ts', changeType: 'added', newText: 'export const rate = 0.2;\nexport const label = "vat";\n' },
      {
        path: 'pnpm-lock.yaml',
        changeType: 'modified',
        oldText: 'lockfileVersion: 9\n',
        newText: 'lockfileVersion: 10\n',
      },
      { path: 'src/legacy.ts', changeType: 'deleted', oldText: 'export const legacy = true;\n' },
      { path: 'assets/logo.png', changeType: 'modified', oldText: 'PNG1', newText: 'PNG2', binary: true },
    ],
    branchFiles: { main: {} },
  };
}

/** The reviewing model's answer: findings as the engine's schema asks for them. */
export function findingsAnswer(...findings: Array<Record<string, unknown>>): FakeChatAnswer {
  return {
    content: JSON.stringify({
      findings: findings.map((f) => ({
        quote: '',
        evidence: 'Seen in the diff.',
        claim: { kind: 'none', symbol: null, path: null },
        confidence: 90,
        suggestion: null,
        ruleId: null,
        ...f,
      })),
      fileNotes: null,
    }),
  };
}

/** The verifier confirming every finding it is shown with a high score. */
export function confirmAll(request: FakeChatRequest): FakeChatAnswer {
  const ids = [...userOf(request).matchAll(/^(F\d+)\. /gm)].map((m) => m[1]);
  return {
    content: JSON.stringify({
      items: ids.map((id) => ({
        id,
        score: 9,
        why: 'The defect is visible in the diff.',
        features: {
          isDefect: true,
          requiresAssumedInput: false,
          isQualityOpinion: false,
          targetsUnchangedCode: false,
          suggestionIsCorrect: null,
        },
        locatedQuote: null,
      })),
    }),
  };
}
