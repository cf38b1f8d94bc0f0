import { createHash, randomBytes } from 'node:crypto';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { type FakeHttpServer, type FakeReply, type FakeRequest, startFakeHttpServer } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatibleProfile } from '../testing/ai-test-kit.js';
import { type ApiResponse, cookiePair, startTestHost, TestApi, type TestHost } from '../testing/index.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Every answer the test receives, kept so it can be searched for canaries afterwards. */
class RecordingApi extends TestApi {
  constructor(
    baseUrl: string,
    private readonly seen: Array<{ what: string; res: ApiResponse }>,
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

describe('secrets never leave through responses or logs', () => {
  const CANARY_ADMIN_PASSWORD = 'canary-admin-password-4f1d';
  const CANARY_USER_PASSWORD = 'canary-user-password-9c2e';
  const CANARY_NEW_PASSWORD = 'canary-new-password-77aa';
  const CANARY_WRONG_PASSWORD = 'canary-wrong-password-5b3c';
  const CANARY_JWT_SECRET = 'canary-jwt-secret-0123456789abcdef0123456789';
  const seen: Array<{ what: string; res: ApiResponse }> = [];
  const issued = { refreshTokens: [] as string[], pats: [] as string[] };
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost({
      env: {
        MARGIN_BOOTSTRAP_ADMIN_PASSWORD: CANARY_ADMIN_PASSWORD,
        MARGIN_JWT_SECRET: CANARY_JWT_SECRET,
        LOG_LEVEL: 'trace',
      },
    });
    const api = new RecordingApi(`${host.url}/api`, seen);
    const login = async (username: string, password: string) => {
      const res = await api.post('/auth/login', { username, password });
      const cookie = cookiePair(res.headers.get('set-cookie'));
      if (cookie) issued.refreshTokens.push(cookie.split('=')[1] ?? '');
      return api.with({ bearer: res.body?.accessToken, cookie });
    };
    const admin = await login('admin', CANARY_ADMIN_PASSWORD);
    await login('admin', CANARY_WRONG_PASSWORD);
    await admin.post('/admin/users', { username: 'canary', password: CANARY_USER_PASSWORD });
    await admin.post('/admin/users', { username: 'canary', password: CANARY_USER_PASSWORD }); // duplicate → 409
    await admin.post('/admin/users', { username: 'weak', password: 'short' }); // → 400
    const user = await login('canary', CANARY_USER_PASSWORD);
    const pat = await user.post('/users/me/pats', { label: 'canary' });
    issued.pats.push(pat.body.token);
    await user.get('/users/me/pats');
    await api.with({ pat: pat.body.token }).get('/auth/me');
    await api.with({ pat: `${pat.body.token}x` }).get('/auth/me');
    const refreshed = await user.post('/auth/refresh');
    issued.refreshTokens.push(cookiePair(refreshed.headers.get('set-cookie'))?.split('=')[1] ?? '');
    await user.post('/auth/refresh'); // reuse of the first token
    await api.post('/auth/refresh', { refreshToken: issued.refreshTokens[1] }); // body fallback
    await user.post('/users/me/password', { currentPassword: CANARY_WRONG_PASSWORD, newPassword: CANARY_NEW_PASSWORD });
    await user.post('/users/me/password', { currentPassword: CANARY_USER_PASSWORD, newPassword: CANARY_NEW_PASSWORD });
    await api.post('/auth/login', `{"username":"canary","password":"${CANARY_NEW_PASSWORD}"`); // malformed JSON
    const canaryId = (await admin.get('/admin/users')).body.items.find(
      (u: { username: string }) => u.username === 'canary',
    ).id;
    await admin.patch(`/admin/users/${canaryId}`, { password: CANARY_USER_PASSWORD, isActive: false });
  });
  afterAll(async () => {
    await host.close();
  });

  it('no response body or header carries a password, the JWT secret, a token hash or a password hash', async () => {
    const passwordHashes = (await host.storage.users.list({ limit: 100 })).items.map((u) => u.passwordHash ?? '');
    const forbidden = [
      CANARY_ADMIN_PASSWORD,
      CANARY_USER_PASSWORD,
      CANARY_NEW_PASSWORD,
      CANARY_WRONG_PASSWORD,
      CANARY_JWT_SECRET,
      ...issued.refreshTokens.map(sha256),
      ...issued.pats.map(sha256),
      ...passwordHashes,
    ];
    expect(seen.length).toBeGreaterThan(15);
    for (const { what, res } of seen) {
      const headers = [...res.headers]
        .filter(([name]) => name !== 'set-cookie')
        .map(([n, v]) => `${n}: ${v}`)
        .join('\n');
      const text = `${JSON.stringify(res.body)}\n${headers}`;
      for (const secret of forbidden)
        expect(text.includes(secret), `${what} leaked ${secret.slice(0, 12)}…`).toBe(false);
      // Refresh tokens only ever travel in Set-Cookie, except to a body-fallback refresh.
      if (!what.startsWith('POST /auth/refresh')) {
        for (const token of issued.refreshTokens)
          expect(text.includes(token), `${what} echoed a refresh token`).toBe(false);
      }
      // The PAT plaintext appears in its creation answer only.
      if (what !== 'POST /users/me/pats') {
        for (const token of issued.pats) expect(text.includes(token), `${what} echoed a PAT`).toBe(false);
      }
    }
  });

  it('no log line carries a password, secret, token or hash', async () => {
    const logs = host.rawLogs();
    expect(logs.split('\n').length).toBeGreaterThan(20);
    const passwordHashes = (await host.storage.users.list({ limit: 100 })).items.map((u) => u.passwordHash ?? '');
    for (const secret of [
      CANARY_ADMIN_PASSWORD,
      CANARY_USER_PASSWORD,
      CANARY_NEW_PASSWORD,
      CANARY_WRONG_PASSWORD,
      CANARY_JWT_SECRET,
      ...issued.refreshTokens,
      ...issued.refreshTokens.map(sha256),
      ...issued.pats,
      ...issued.pats.map(sha256),
      ...passwordHashes,
    ]) {
      expect(logs.includes(secret), `logs leaked ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});

/**
 * The stored credentials of source-control and AI connections, on the paths where they could be
 * pointed elsewhere or echoed back: a moved host without the secret, a redirect to another host, and a
 * provider that reflects the credential in its refusal.
 */
describe('stored provider credentials never leave through responses or logs', () => {
  const SCM_PAT = `glpat-${randomBytes(16).toString('hex')}`;
  const AI_KEY = `sk-${randomBytes(20).toString('hex')}`;
  const seen: Array<{ what: string; res: ApiResponse }> = [];
  let host: TestHost;
  let provider: FakeHttpServer;
  let elsewhere: FakeHttpServer;
  /** How the provider answers every call; each step of the scenario sets it. */
  let answer: (req: FakeRequest) => FakeReply = () => ({ status: 500 });
  /** The provider echoes what it was sent: the credential headers and the token's halves. */
  const echo = (req: FakeRequest) => {
    const sent = String(req.headers['private-token'] ?? req.headers.authorization ?? '');
    const token = sent.replace(/^Bearer\s+/i, '');
    return `REFLECTED you sent ${sent}; token ${token.slice(0, 20)} / ${token.slice(20)}`;
  };

  beforeAll(async () => {
    provider = await startFakeHttpServer();
    elsewhere = await startFakeHttpServer();
    for (const method of ['GET', 'POST']) {
      provider.on(method, '/*', (req) => answer(req));
      elsewhere.on(method, '/*', () => ({ status: 200, json: { id: 1, username: 'thief', data: [] } }));
    }
    host = await startTestHost({ env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true', LOG_LEVEL: 'trace' } });
    const login = await host.admin();
    const admin = new RecordingApi(login.baseUrl, seen, login.credentials);
    const clientId = (await admin.post('/clients', { displayName: 'Canary', tenantId: SYSTEM_TENANT_ID })).body.id;
    const refuse = (req: FakeRequest): FakeReply => ({
      status: 401,
      headers: { 'www-authenticate': echo(req) },
      json: { message: echo(req), error: { message: echo(req) } },
    });
    const redirect = (req: FakeRequest): FakeReply => ({
      status: 302,
      headers: { location: `${elsewhere.url}${req.path}?echo=${encodeURIComponent(echo(req))}` },
    });

    // Source control (GitLab).
    const scm = `/clients/${clientId}/provider-connections`;
    const connection = await admin.post(scm, {
      providerFamily: 'gitHostB',
      authenticationKind: 'personalAccessToken',
      hostBaseUrl: provider.url,
      secret: SCM_PAT,
    });
    expect(connection.status).toBe(201);
    const scmPath = `${scm}/${connection.body.id}`;
    answer = refuse;
    expect((await admin.post(`${scmPath}/verify`)).body.lastVerificationFailureCategory).toBe('credentials');
    answer = redirect;
    expect((await admin.post(`${scmPath}/verify`)).body.lastVerificationFailureCategory).toBe('egressRefused');
    for (const moved of [{ hostBaseUrl: elsewhere.url }, { hostBaseUrl: elsewhere.url, secret: ' ' }]) {
      const res = await admin.patch(scmPath, moved);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'secret', message: expect.any(String) }]);
    }
    answer = refuse;
    await admin.post(`${scmPath}/verify`);
    await admin.get(scmPath);
    await admin.get(scm);

    // AI (an OpenAI-compatible server).
    const ai = `/clients/${clientId}/ai-connections`;
    const profile = await admin.post(ai, compatibleProfile(`${provider.url}/v1`, AI_KEY));
    expect(profile.status).toBe(201);
    const aiPath = `${ai}/${profile.body.id}`;
    answer = refuse;
    expect((await admin.post(`${aiPath}/verify`)).body.status).toBe('failed');
    answer = redirect;
    expect((await admin.post(`${aiPath}/verify`)).body.status).toBe('failed');
    const aiMoves = [{ baseUrl: `${elsewhere.url}/v1` }, { baseUrl: `${elsewhere.url}/v1`, auth: { mode: 'apiKey' } }];
    for (const moved of aiMoves) {
      const res = await admin.patch(aiPath, moved);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: 'auth.apiKey', message: expect.any(String) }]);
    }
    answer = refuse;
    await admin.post(`${ai}/probe`, {
      providerKind: 'kindCompatible',
      baseUrl: `${provider.url}/v1`,
      auth: { mode: 'apiKey', apiKey: AI_KEY },
    });
    await admin.post(`${ai}/discover-models`, {
      providerKind: 'kindCompatible',
      baseUrl: `${provider.url}/v1`,
      auth: { mode: 'apiKey', apiKey: AI_KEY },
    });
    await admin.get(aiPath);
    await admin.get(ai);
  });
  afterAll(async () => {
    await host?.close();
    await provider?.close();
    await elsewhere?.close();
  });

  it('sent each credential only to its own host, which reflected it', () => {
    expect(elsewhere.requests).toEqual([]);
    const reflected = provider.requests.map(echo).join('\n');
    expect(reflected).toContain(SCM_PAT);
    expect(reflected).toContain(AI_KEY);
  });

  it('no response, stored verification error or log line carries a credential or a recognisable part of it', async () => {
    expect(seen.length).toBeGreaterThan(15);
    const stored = await host.storage.knex('provider_connections').select('last_verification_error');
    const texts: Array<[string, string]> = [
      ...seen.map(({ what, res }): [string, string] => [
        what,
        `${JSON.stringify(res.body)}\n${[...res.headers].map(([n, v]) => `${n}: ${v}`).join('\n')}`,
      ]),
      ['stored verification errors', JSON.stringify(stored)],
      ['logs', host.rawLogs()],
    ];
    for (const secret of [SCM_PAT, AI_KEY]) {
      for (const [what, text] of texts) expect(recognisablePart(text, secret), `${what} leaked`).toBeUndefined();
    }
  });
});

/** The secret, any 10 characters of it in a row, or its Basic-auth (base64) forms, when `text` has one. */
function recognisablePart(text: string, secret: string): string | undefined {
  const windows = (value: string, size: number) =>
    Array.from({ length: Math.max(1, value.length - size + 1) }, (_, i) => value.slice(i, i + size));
  const base64 = [secret, `:${secret}`].map((v) => Buffer.from(v).toString('base64'));
  return [secret, ...windows(secret, 10), ...base64, ...base64.flatMap((b) => windows(b.slice(4, -4), 16))].find(
    (part) => text.includes(part),
  );
}
