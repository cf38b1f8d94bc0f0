/**
 * End to end through the reference host: the plugin registered with `createProviderRegistry({ plugins })`
 * and nothing else changed. A signed Forgejo `pull_request` delivery reaches the receiver under the
 * family's segment, becomes a review by a scripted OpenAI-compatible model, and ends as a Forgejo
 * review with the inline comment plus one summary comment on the fake.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { createProviderRegistry } from '@margin/providers';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import { billingScenario, confirmAll, findingsAnswer, isVerifying, userOf } from '@margin/server-express/test-kits';
import { eventually, startTestHost, type TestApi, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgejoPlugin } from './forgejo-family.js';
import { FJ_OWNER, FJ_REPOSITORY, type ForgejoFake, startForgejoFake } from './testing/forgejo-fake.js';

// Obviously fake, and distinctive so a leak is easy to spot.
const TOKEN = 'fj-host-token-0123456789abcdef0123456789ab';

let fake: ForgejoFake;
let model: FakeChatModel;
let host: TestHost;
let admin: TestApi;

beforeAll(async () => {
  fake = await startForgejoFake({ token: TOKEN, flavour: 'forgejo' });
  model = await startFakeChatModel();
  host = await startTestHost({
    providers: createProviderRegistry({ allowPrivateEgress: true, plugins: [forgejoPlugin({ backoffBaseMs: 1 })] }),
    env: {
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      WORKER_POLL_INTERVAL_MILLISECONDS: '50',
      WEBHOOK_PROCESSOR_POLL_INTERVAL_MILLISECONDS: '50',
    },
  });
  admin = await host.admin();
}, 60_000);

afterAll(async () => {
  await host?.close();
  await model?.close();
  await fake?.close();
});

const created = (what: string, res: { status: number; body: any }, status = 201) => {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

const connectionBody = (overrides: Record<string, unknown> = {}) => ({
  providerFamily: 'forgejo',
  authenticationKind: 'personalAccessToken',
  hostBaseUrl: fake.hostUrl,
  displayName: 'Forgejo',
  secret: TOKEN,
  ...overrides,
});

/** A client reviewing the fake's `acme` repositories with the scripted model, through a webhook configuration. */
async function reviewingClient(name: string) {
  const client = created('client', await admin.post('/clients', { displayName: name, tenantId: SYSTEM_TENANT_ID }));
  const connection = created(
    'connection',
    await admin.post(`/clients/${client.id}/provider-connections`, connectionBody()),
  );
  const verified = await admin.post(`/clients/${client.id}/provider-connections/${connection.id}/verify`);
  expect(verified.body).toMatchObject({ verificationStatus: 'verified' });
  const scope = created(
    'scope',
    await admin.post(`/clients/${client.id}/provider-connections/${connection.id}/scopes`, {
      scopeType: 'organization',
      scopePath: `${fake.hostUrl}/${FJ_OWNER}`,
    }),
  );
  const ai = created(
    'ai connection',
    await admin.post(`/clients/${client.id}/ai-connections`, model.profile({ model: { maxContextTokens: 32_768 } })),
  );
  created('verify', await admin.post(`/clients/${client.id}/ai-connections/${ai.id}/verify`), 200);
  created('activate', await admin.post(`/clients/${client.id}/ai-connections/${ai.id}/activate`), 200);
  const webhook = created(
    'webhook configuration',
    await admin.post('/admin/webhook-configurations', {
      clientId: client.id,
      provider: 'forgejo',
      organizationScopeId: scope.id,
      providerProjectKey: FJ_OWNER,
      enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
      repoFilters: [],
    }),
  ) as { id: string; listenerUrl: string; generatedSecret: string };
  return { clientId: client.id as string, webhook };
}

/** A Forgejo `pull_request` delivery as Forgejo signs it: hex HMAC-SHA256 of the body with the webhook's secret. */
function delivery(fixture: string, secret: string, edit: (payload: any) => void) {
  const payload = JSON.parse(readFileSync(new URL(`./__fixtures__/${fixture}`, import.meta.url), 'utf8'));
  edit(payload);
  const body = JSON.stringify(payload);
  const signature = createHmac('sha256', secret).update(body).digest('hex');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-forgejo-event': 'pull_request',
      'x-forgejo-delivery': randomUUID(),
      'x-forgejo-signature': signature,
      'x-gitea-event': 'pull_request',
      'x-gitea-signature': signature,
    },
  };
}

async function send(url: string, d: { body: string; headers: Record<string, string> }) {
  const res = await fetch(url, { method: 'POST', headers: d.headers, body: d.body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

describe('the Forgejo plugin in the reference host', () => {
  it('turns a signed pull_request delivery into a Forgejo review with the finding inline and one summary', async () => {
    const number = 701;
    const scenario = billingScenario(number);
    fake.loadPullRequest(scenario);
    const client = await reviewingClient('Reviews on Forgejo');
    // The model finds one defect, quoting line 42 but numbering it 40, and the verifier confirms it.
    model.respondWith((request) => {
      if (isVerifying(request)) return confirmAll(request);
      if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
      return findingsAnswer({
        path: 'src/billing.ts',
        quote: 'const total = price * qty;',
        startLine: 40,
        endLine: 40,
        category: 'bug',
        title: 'Total ignores the discount',
        severity: 'error',
        message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
      });
    });

    const listener = new URL(client.webhook.listenerUrl).pathname;
    expect(listener).toMatch(/^\/webhooks\/v1\/providers\/forgejo\/[^/]+$/);
    const onHead = (action: string) => (payload: any) => {
      payload.action = action;
      payload.number = number;
      payload.pull_request.number = number;
      payload.pull_request.head.sha = scenario.headSha;
      payload.pull_request.head.ref = scenario.sourceBranch;
      payload.pull_request.base.sha = scenario.baseSha;
      payload.pull_request.base.ref = scenario.targetBranch;
    };
    const before = fake.writes.length;
    const answered = await send(
      `${host.url}${listener}`,
      delivery('webhook-pull-request-opened.json', client.webhook.generatedSecret, onHead('opened')),
    );
    expect(answered).toMatchObject({ status: 200, body: { status: 'accepted' } });

    const listed = await eventually(async () => {
      const list = await admin.get(`/clients/${client.clientId}/reviewing/jobs?pullRequestId=${number}`);
      const found = list.body.items?.[0];
      return found && ['completed', 'failed'].includes(found.status) ? found : undefined;
    }, 30_000);
    expect(listed).toMatchObject({ status: 'completed', trigger: 'webhook', error: null });
    expect(listed.configuration).toMatchObject({ configurationId: client.webhook.id });

    // Coverage, findings and usage through the API.
    const job = (await admin.get(`/reviewing/jobs/${listed.jobId}/status`)).body;
    expect(job.status).toBe('completed');
    expect(job.result.findings).toHaveLength(1);
    expect(job.result.findings[0]).toMatchObject({
      filePath: 'src/billing.ts',
      startLine: 42,
      endLine: 42,
      severity: 'error',
      publication: 'published',
      providerThreadId: expect.stringMatching(/^code:\d+$/),
    });
    const coverage = Object.fromEntries(
      job.result.coverage.files.map((f: { path: string; state: string; reason?: string }) => [
        f.path,
        `${f.state}${f.reason ? `:${f.reason}` : ''}`,
      ]),
    );
    expect(coverage).toEqual({
      'assets/logo.png': 'skipped:binary',
      'pnpm-lock.yaml': 'skipped:lockFile',
      'src/billing.ts': 'reviewed',
      'src/legacy.ts': 'skipped:deleteOnly',
      'src/tax.ts': 'reviewed',
    });
    expect(job.usage.inputTokens).toBeGreaterThan(0);
    expect(job.usage.byModel.map((m: { purpose: string }) => m.purpose).sort()).toEqual([
      'reviewLowEffort',
      'reviewVerification',
    ]);

    // Forgejo's native shape: one review (event COMMENT) carrying the comment at line 42 of the new
    // file, and one issue comment as the pull request's summary.
    const repo = `/repos/${FJ_OWNER}/${FJ_REPOSITORY}`;
    const mine = fake.writes.slice(before);
    const reviews = mine.filter((w) => w.method === 'POST' && w.path === `${repo}/pulls/${number}/reviews`);
    expect(reviews).toHaveLength(1);
    expect(reviews[0]).toMatchObject({
      status: 200,
      body: {
        event: 'COMMENT',
        commit_id: scenario.headSha,
        comments: [{ path: 'src/billing.ts', new_position: 42 }],
      },
    });
    expect((reviews[0]?.body as { comments?: unknown[] } | undefined)?.comments).toHaveLength(1);
    expect(JSON.stringify(reviews[0]?.body)).toContain('Total ignores the discount');
    const summaries = mine.filter((w) => w.method === 'POST' && w.path === `${repo}/issues/${number}/comments`);
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.status).toBe(201);
    expect(JSON.stringify(summaries[0]?.body)).toContain('Margin review');
    expect(JSON.stringify(mine)).not.toContain(model.profile().auth.apiKey);

    // A push notification for the same head (another delivery id): accepted, but no second job.
    const writesAfterFirst = fake.writes.length;
    const again = await send(
      `${host.url}${listener}`,
      delivery('webhook-pull-request-synchronized.json', client.webhook.generatedSecret, onHead('synchronized')),
    );
    expect(again).toMatchObject({ status: 200, body: { status: 'accepted' } });
    const rows = await eventually(async () => {
      const res = await admin.get(`/admin/webhook-configurations/${client.webhook.id}/deliveries`);
      const items = res.body.items as Array<{ outcome: string; actions: string[] }>;
      return items.length === 2 && items.every((d) => d.actions.length > 0) ? items : undefined;
    }, 30_000);
    expect(rows[0]?.actions).toEqual(['skipped: revision already reviewed']);
    const jobs = await admin.get(`/clients/${client.clientId}/reviewing/jobs`);
    expect(jobs.body.items).toHaveLength(1);
    expect(fake.writes.slice(writesAfterFirst)).toEqual([]);
    expect(host.rawLogs()).not.toContain(TOKEN);
  }, 60_000);

  it('refuses a forgejo connection of a kind the family does not declare, naming authenticationKind', async () => {
    const client = created(
      'client',
      await admin.post('/clients', { displayName: 'Kinds', tenantId: SYSTEM_TENANT_ID }),
    );
    const res = await admin.post(
      `/clients/${client.id}/provider-connections`,
      connectionBody({ authenticationKind: 'appInstallation', hostedAppId: 1, hostedAppInstallationId: 2 }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(res.body.details).toEqual([
      {
        path: 'authenticationKind',
        message:
          "forgejo connections do not accept authenticationKind 'appInstallation'; accepted: personalAccessToken.",
      },
    ]);
  });
});
