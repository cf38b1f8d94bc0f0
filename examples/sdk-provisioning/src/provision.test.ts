import { SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import {
  type FakeChatModel,
  GH_OWNER,
  GH_REPOSITORY_ID,
  type GitHubFake,
  startFakeChatModel,
  startGitHubFake,
} from '@margin/providers/testing';
import { createMarginClient } from '@margin/sdk-client';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatReport,
  ProvisioningError,
  type ProvisionOptions,
  type ProvisionReport,
  provision,
} from './provision.js';

// Obviously fake credentials, distinctive so a leak is easy to find.
const GITHUB_PAT = 'ghp_exampleProvisioningFakeToken0000';
const AI_KEY = 'sk-example-provisioning-fake-key-0000';
const CHAT_MODEL = 'qwen2.5-coder:32b';
// The model finds nothing to report: the review completes with a summary and no threads.
const NOTHING_FOUND = { content: JSON.stringify({ findings: [], fileNotes: null }) };
const pr = SCM_CONTRACT_SCENARIO.pullRequest;

describe('provision() against a real host, with GitHub and an OpenAI-compatible server faked on loopback', () => {
  let github: GitHubFake;
  let ai: FakeChatModel;
  let host: TestHost;
  let options: ProvisionOptions;
  let first: ProvisionReport;
  const lines: string[] = [];

  beforeAll(async () => {
    github = await startGitHubFake({ pat: GITHUB_PAT });
    ai = await startFakeChatModel({ models: [CHAT_MODEL], respond: NOTHING_FOUND });
    host = await startTestHost({
      env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true', WORKER_POLL_INTERVAL_MILLISECONDS: '50' },
    });
    options = {
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      client: { displayName: 'Payments team' },
      sourceControl: {
        providerFamily: 'gitHostA',
        hostBaseUrl: github.hostUrl,
        secret: GITHUB_PAT,
        displayName: 'GitHub Enterprise',
      },
      ai: {
        displayName: 'Local models',
        providerKind: 'kindCompatible',
        baseUrl: ai.apiRoot,
        apiKey: AI_KEY,
        model: { remoteModelId: CHAT_MODEL, maxContextTokens: 32_768 },
      },
      logicalModelName: 'reviewer',
      review: {
        repository: {
          externalRepositoryId: GH_REPOSITORY_ID,
          ownerOrNamespace: GH_OWNER,
          projectPath: 'acme/uploader',
        },
        codeReview: { platform: 'pullRequest', externalReviewId: String(pr.number), number: pr.number },
        reviewRevision: { headSha: pr.headSha, baseSha: pr.baseSha },
      },
      wait: { intervalMs: 50, timeoutMs: 10_000 },
      log: (line) => lines.push(line),
    };
  });
  afterAll(async () => {
    await host.close();
    await github.close();
    await ai.close();
  });

  it('sets the client up on the first run and reports the review it ran', async () => {
    first = await provision(options);
    expect(first.steps.map((s) => `${s.outcome} ${s.resource}`)).toEqual([
      'created client',
      'created source-control connection',
      'changed source-control verification',
      'created AI connection',
      'changed AI verification',
      'changed AI activation',
      'created logical model',
      'changed purpose',
      'created review job',
    ]);
    expect(first.review).toEqual({ jobId: expect.any(String), submitted: true, status: 'completed', error: null });
    expect(formatReport(first)).toEqual([
      `Client ${first.clientId}: 5 created, 4 changed, 0 already in place.`,
      `Review job ${first.review?.jobId}: completed.`,
    ]);
    // Verification really reached the providers: who the token acts as, the model list, one tiny chat;
    // then the review asked the model about the pull request and posted its summary on it.
    // `/user` twice: verification, and the review learning which threads are its own.
    expect(github.server.requests.filter((r) => r.path === '/api/v3/user')).toHaveLength(2);
    const aiCalls = ai.requests.map((r) => `${r.method} ${r.path}`);
    expect(aiCalls.slice(0, 2)).toEqual(['GET /v1/models', 'POST /v1/chat/completions']);
    expect(aiCalls.length).toBeGreaterThan(2);
    expect(github.writes.filter((w) => w.method === 'POST' && w.path.includes('/issues/'))).toHaveLength(1);
  });

  it('creates and changes nothing on a second run, and reports the same job', async () => {
    const calls = { github: github.server.requests.length, ai: ai.requests.length };
    const second = await provision(options);
    expect(second.steps.map((s) => s.outcome)).toEqual(Array(9).fill('unchanged'));
    expect(second).toMatchObject({
      clientId: first.clientId,
      scmConnectionId: first.scmConnectionId,
      aiConnectionId: first.aiConnectionId,
      review: { jobId: first.review?.jobId, submitted: false, status: 'completed', error: null },
    });
    expect(formatReport(second)[0]).toBe(`Client ${first.clientId}: 0 created, 0 changed, 9 already in place.`);
    // Nothing was verified again either.
    expect({ github: github.server.requests.length, ai: ai.requests.length }).toEqual(calls);
  });

  it('leaves exactly one of each, as the SDK reads them back', async () => {
    const margin = createMarginClient({ baseUrl: options.baseUrl, credentials: options.credentials });
    const clients = (await margin.tenancy.listClients()).items.filter((c) => c.displayName === 'Payments team');
    expect(clients.map((c) => c.id)).toEqual([first.clientId]);
    expect((await margin.scm.listProviderConnections(first.clientId)).items).toEqual([
      expect.objectContaining({ id: first.scmConnectionId, verificationStatus: 'verified', hasSecret: true }),
    ]);
    expect((await margin.ai.listAiConnections(first.clientId)).items).toEqual([
      expect.objectContaining({
        id: first.aiConnectionId,
        isActive: true,
        verification: expect.objectContaining({ status: 'verified' }),
      }),
    ]);
    const logical = await margin.ai.listClientLogicalModels(first.clientId);
    expect(logical.items).toEqual([
      expect.objectContaining({ name: 'reviewer', scope: 'client', connectionId: first.aiConnectionId }),
    ]);
    expect(logical.purposes.find((p) => p.purpose === 'reviewDefault')?.logicalModelName).toBe('reviewer');
    expect((await margin.reviewing.listReviewJobs(first.clientId)).items).toEqual([
      expect.objectContaining({ jobId: first.review?.jobId, status: 'completed' }),
    ]);
  });

  it('stops with the provider’s reason when the source-control token is refused, before touching AI', async () => {
    const wrongToken = 'ghp_exampleWrongFakeToken00000000000';
    const before = lines.length;
    const run = provision({
      ...options,
      client: { displayName: 'Other team' },
      sourceControl: { ...options.sourceControl, secret: wrongToken },
    });
    await expect(run).rejects.toBeInstanceOf(ProvisioningError);
    await expect(run).rejects.toThrow(/failed verification \(credentials\)/);
    await expect(run).rejects.not.toThrow(wrongToken);
    expect(lines.slice(before).map((l) => l.split(' ')[0])).toEqual(['created', 'created']);
  });

  it('never writes a secret into its log lines or report', () => {
    const text = JSON.stringify({ lines, first });
    for (const secret of [GITHUB_PAT, AI_KEY, ADMIN_PASSWORD]) expect(text).not.toContain(secret);
  });
});
