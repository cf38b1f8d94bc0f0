import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MODEL,
  compatibleProfile,
  EMBEDDING_DIMENSIONS,
  EMBEDDING_MODEL,
  type FakeOpenAi,
  startFakeOpenAi,
} from '../testing/ai-test-kit.js';
import { type ApiResponse, startTestHost, TestApi, type TestHost } from '../testing/index.js';

const CANARY_KEY = 'sk-canary-ai-key-7f3e9b21c4d8a6e0';
const CANARY_KEY_2 = 'sk-canary-rotated-key-51aa02ce9d7f';

/** Keeps every answer so the test can search them for the key afterwards. */
class RecordingApi extends TestApi {
  constructor(
    baseUrl: string,
    readonly seen: Array<{ what: string; res: ApiResponse }>,
    credentials = {},
  ) {
    super(baseUrl, credentials);
  }
  override with(credentials: object): RecordingApi {
    return new RecordingApi(this.baseUrl, this.seen, credentials);
  }
  override async request(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    const res = await super.request(method, path, body, headers);
    this.seen.push({ what: `${method} ${path}`, res });
    return res;
  }
}

describe('AI connection lifecycle against an OpenAI-compatible server on loopback', () => {
  let fake: FakeOpenAi;
  let host: TestHost;
  let admin: RecordingApi;
  let clientId: string;
  const seen: Array<{ what: string; res: ApiResponse }> = [];
  const base = () => `/clients/${clientId}/ai-connections`;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    host = await startTestHost({ env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true', LOG_LEVEL: 'trace' } });
    const token = (await host.admin()).credentials;
    admin = new RecordingApi(`${host.url}/api`, seen, token);
    clientId = (await admin.post('/clients', { displayName: 'Lifecycle', tenantId: SYSTEM_TENANT_ID })).body.id;
  });
  afterAll(async () => {
    await host.close();
    await fake.close();
  });

  const create = async (name: string, extra: Record<string, unknown> = {}) => {
    const res = await admin.post(base(), compatibleProfile(fake.apiRoot, CANARY_KEY, { displayName: name, ...extra }));
    expect(res.status).toBe(201);
    return res.body as { id: string; configuredModels: Array<{ id: string }> };
  };

  it('probes, discovers, creates, verifies and activates', async () => {
    const connection = {
      providerKind: 'kindCompatible',
      baseUrl: fake.apiRoot,
      auth: { mode: 'apiKey', apiKey: CANARY_KEY },
    };
    const probe = await admin.post(`${base()}/probe`, connection);
    expect(probe.status).toBe(200);
    expect(probe.body).toEqual({
      status: 'succeeded',
      summary: 'The server answered the model list with 3 models.',
      checkedAt: expect.any(String),
      warnings: [],
    });
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);

    const discovered = await admin.post(`${base()}/discover-models`, connection);
    expect(discovered.status).toBe(200);
    expect(discovered.body).toMatchObject({ discoveryStatus: 'succeeded', manualEntryAllowed: true, warnings: [] });
    expect(discovered.body.models.map((m: { remoteModelId: string }) => m.remoteModelId)).toEqual([
      'gpt-4.1',
      EMBEDDING_MODEL,
      CHAT_MODEL,
    ]);
    const gpt = discovered.body.models[0];
    // Filled from the built-in catalog only where the catalog lists the model for this kind.
    expect(gpt).toMatchObject({ source: 'discovered', operationKinds: ['chat'], lastSeenAt: expect.any(String) });
    expect(discovered.body.models[1]).toMatchObject({
      operationKinds: ['embedding'],
      supportedProtocolModes: ['auto', 'embeddings'],
    });
    expect(discovered.body.models[2].supportedProtocolModes).toEqual(['auto', 'chatCompletions']);

    const created = await create('Primary');
    expect(created).toMatchObject({ isActive: false, verification: { status: 'neverVerified' } });
    const early = await admin.post(`${base()}/${created.id}/activate`);
    expect(early.status).toBe(400);
    expect(early.body.error).toContain('has not been verified');

    fake.requests.length = 0;
    const verified = await admin.post(`${base()}/${created.id}/verify`);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      status: 'verified',
      summary: 'The server answered the model list with 3 models. All 2 configured models answered.',
      checkedAt: expect.any(String),
      warnings: [],
    });
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/models',
      'POST /v1/chat/completions',
      'POST /v1/embeddings',
    ]);
    expect(fake.requests[1]?.json).toMatchObject({ model: CHAT_MODEL, max_tokens: 16 });
    expect(fake.requests[2]?.json).toMatchObject({ model: EMBEDDING_MODEL, input: ['Margin connection check.'] });

    const activated = await admin.post(`${base()}/${created.id}/activate`);
    expect(activated.status).toBe(200);
    expect(activated.body).toMatchObject({ isActive: true, verification: { status: 'verified' } });
    expect((await admin.get(`${base()}/${created.id}`)).body.isActive).toBe(true);

    const deactivated = await admin.post(`${base()}/${created.id}/deactivate`);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.isActive).toBe(false);
    expect((await admin.post(`${base()}/${created.id}/activate`)).status).toBe(200);
  });

  it('stores a failed verification with its category, and then refuses activation', async () => {
    const created = await create('Rejected key');
    fake.failWith({
      status: 401,
      json: {
        error: {
          message: `Incorrect API key provided: ${CANARY_KEY}.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    try {
      const verified = await admin.post(`${base()}/${created.id}/verify`);
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
      expect(verified.body.summary).not.toContain(CANARY_KEY);
      const probe = await admin.post(`${base()}/probe`, {
        providerKind: 'kindCompatible',
        baseUrl: fake.apiRoot,
        auth: { mode: 'apiKey', apiKey: CANARY_KEY },
      });
      expect(probe.body).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
      const discovered = await admin.post(`${base()}/discover-models`, {
        providerKind: 'kindCompatible',
        baseUrl: fake.apiRoot,
        auth: { mode: 'apiKey', apiKey: CANARY_KEY },
      });
      expect(discovered.body).toMatchObject({ discoveryStatus: 'failed', manualEntryAllowed: true, models: [] });
    } finally {
      fake.failWith(undefined);
    }
    const stored = await admin.get(`${base()}/${created.id}`);
    expect(stored.body.verification).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    const activate = await admin.post(`${base()}/${created.id}/activate`);
    expect(activate.status).toBe(400);
    expect(activate.body.error).toContain('last verification failed');
  });

  it('fails verification when an embedding model answers another vector length (capabilityMismatch)', async () => {
    const created = await create('Wrong dimensions');
    fake.setDimensions(384);
    try {
      const verified = await admin.post(`${base()}/${created.id}/verify`);
      expect(verified.body).toMatchObject({ status: 'failed', failureCategory: 'capabilityMismatch' });
      expect(verified.body.summary).toContain(
        `answered vectors of 384 dimensions; the profile says ${EMBEDDING_DIMENSIONS}`,
      );
    } finally {
      fake.setDimensions(EMBEDDING_DIMENSIONS);
    }
  });

  it('resets verification on every qualifying change, but not on a rename', async () => {
    const created = await create('Changes');
    const verifyAndCheck = async () => {
      expect((await admin.post(`${base()}/${created.id}/verify`)).body.status).toBe('verified');
    };
    await verifyAndCheck();
    const renamed = await admin.patch(`${base()}/${created.id}`, {
      displayName: 'Changes (renamed)',
      discoveryMode: 'manualOnly',
    });
    expect(renamed.body.verification.status).toBe('verified');
    expect((await admin.post(`${base()}/${created.id}/activate`)).status).toBe(200);

    // Where the key goes (URL, headers, query parameters) changes only together with the key.
    const key = { auth: { mode: 'apiKey', apiKey: CANARY_KEY_2 } };
    const changes: Array<[string, Record<string, unknown>]> = [
      ['baseUrl', { baseUrl: `${fake.url}/v1/`, ...key }],
      ['auth', key],
      ['headers', { defaultHeaders: { 'x-gateway': 'reviews' }, ...key }],
      ['query parameters', { defaultQueryParams: { 'api-version': '1' }, ...key }],
      [
        'models',
        {
          configuredModels: [
            { remoteModelId: CHAT_MODEL, maxContextTokens: 16384 },
            {
              remoteModelId: EMBEDDING_MODEL,
              tokenizerName: 'bert-base-uncased',
              maxInputTokens: 8192,
              embeddingDimensions: 768,
            },
          ],
        },
      ],
      ['bindings', { purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: CHAT_MODEL }] }],
    ];
    for (const [what, patch] of changes) {
      await verifyAndCheck();
      const changed = await admin.patch(`${base()}/${created.id}`, patch);
      expect(changed.status, what).toBe(200);
      expect(changed.body.verification, what).toEqual({
        status: 'neverVerified',
        summary: 'Not verified yet.',
        checkedAt: null,
        warnings: [],
      });
      // Out of service until verified and activated again.
      expect(changed.body.isActive, what).toBe(false);
      const activate = await admin.post(`${base()}/${created.id}/activate`);
      expect(activate.status, what).toBe(400);
      await verifyAndCheck();
      expect((await admin.post(`${base()}/${created.id}/activate`)).body.isActive, what).toBe(true);
    }
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CANARY_KEY_2}`);
  });

  it('sends a stored key only where it was given: moving the profile needs the key again (400 naming it)', async () => {
    const elsewhere = await startFakeOpenAi();
    try {
      const created = await create('Moved');
      await admin.post(`${base()}/${created.id}/verify`);
      expect((await admin.post(`${base()}/${created.id}/activate`)).status).toBe(200);
      const moves: Array<[string, Record<string, unknown>]> = [
        ['baseUrl', { baseUrl: elsewhere.apiRoot }],
        ['baseUrl with auth but no key', { baseUrl: elsewhere.apiRoot, auth: { mode: 'apiKey' } }],
        ['providerKind', { providerKind: 'kindProxy', baseUrl: elsewhere.apiRoot }],
        ['defaultHeaders', { defaultHeaders: { 'x-forward-to': elsewhere.url } }],
        ['defaultQueryParams', { defaultQueryParams: { region: 'attacker.example/x?' } }],
      ];
      for (const [what, patch] of moves) {
        const res = await admin.patch(`${base()}/${created.id}`, patch);
        expect(res.status, what).toBe(400);
        expect(res.body, what).toMatchObject({
          code: 'validation_failed',
          details: [
            {
              path: 'auth.apiKey',
              message:
                'is required again when providerKind, baseUrl, defaultHeaders or defaultQueryParams change: a stored key is only sent where it was given.',
            },
          ],
        });
        // Nothing changed: still active, still verified, still pointing at the first server.
        expect((await admin.post(`${base()}/${created.id}/verify`)).body.status, what).toBe('verified');
      }
      const current = (await admin.get(`${base()}/${created.id}`)).body;
      expect(current).toMatchObject({ baseUrl: fake.apiRoot, isActive: true, defaultHeaders: {} });
      expect(elsewhere.requests).toEqual([]);

      // With the key given again the move is fine, and takes the profile out of service.
      const moved = await admin.patch(`${base()}/${created.id}`, {
        baseUrl: elsewhere.apiRoot,
        auth: { mode: 'apiKey', apiKey: CANARY_KEY_2 },
      });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ isActive: false, verification: { status: 'neverVerified' } });
      expect((await admin.post(`${base()}/${created.id}/verify`)).body.status).toBe('verified');
      const sent = elsewhere.requests.map((r) => r.headers.authorization);
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.every((h) => h === `Bearer ${CANARY_KEY_2}`)).toBe(true);
    } finally {
      await elsewhere.close();
    }
  });

  it('keeps the stored key when a PATCH repeats auth without it (no reset)', async () => {
    const created = await create('Kept key');
    await admin.post(`${base()}/${created.id}/verify`);
    const res = await admin.patch(`${base()}/${created.id}`, { auth: { mode: 'apiKey' } });
    expect(res.body).toMatchObject({ auth: { mode: 'apiKey', hasApiKey: true }, verification: { status: 'verified' } });
  });

  it('refuses a loopback or plain-http profile at save, probe and discovery without MARGIN_ALLOW_PRIVATE_EGRESS', async () => {
    const strict = await startTestHost();
    try {
      const api = await strict.admin();
      const client = (await api.post('/clients', { displayName: 'Strict', tenantId: SYSTEM_TENANT_ID })).body.id;
      const created = await api.post(`/clients/${client}/ai-connections`, compatibleProfile(fake.apiRoot, CANARY_KEY));
      expect(created.status).toBe(400);
      expect(created.body.details).toEqual([
        {
          path: 'baseUrl',
          message: 'baseUrl must use https; plain http is allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true.',
        },
      ]);
      const before = fake.requests.length;
      for (const op of ['probe', 'discover-models']) {
        const res = await api.post(`/clients/${client}/ai-connections/${op}`, {
          providerKind: 'kindCompatible',
          baseUrl: fake.apiRoot,
          auth: { mode: 'apiKey', apiKey: CANARY_KEY },
        });
        expect(res.status, op).toBe(400);
        expect(res.body.details[0].path).toBe('baseUrl');
      }
      const httpsLoopback = await api.post(
        `/clients/${client}/ai-connections`,
        compatibleProfile(fake.apiRoot.replace('http:', 'https:'), CANARY_KEY),
      );
      expect(httpsLoopback.body.details[0].message).toContain('loopback address (127.0.0.1)');
      expect(fake.requests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  it('never returns, echoes or logs the key, and stores it sealed', async () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const { what, res } of seen) {
      const text = `${JSON.stringify(res.body)}\n${[...res.headers].map(([n, v]) => `${n}: ${v}`).join('\n')}`;
      expect(text.includes(CANARY_KEY), `${what} leaked the key`).toBe(false);
      expect(text.includes(CANARY_KEY_2), `${what} leaked the rotated key`).toBe(false);
    }
    const logs = host.rawLogs();
    expect(logs.split('\n').length).toBeGreaterThan(20);
    expect(logs.includes(CANARY_KEY)).toBe(false);
    expect(logs.includes(CANARY_KEY_2)).toBe(false);
    const rows = await host.storage.knex('ai_connections').select('api_key_sealed');
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      expect(String(row.api_key_sealed)).toMatch(/^v2:/);
      expect(String(row.api_key_sealed)).not.toContain(CANARY_KEY);
    }
  });
});
