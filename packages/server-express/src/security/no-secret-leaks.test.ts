import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
