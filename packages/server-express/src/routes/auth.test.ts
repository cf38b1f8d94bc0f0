import { createManualClock } from '@margin/core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  cookiePair,
  startTestHost,
  TEST_USER_PASSWORD,
  type TestHost,
} from '../testing/index.js';

describe('signing in', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('returns an access token and sets the refresh token only as an httpOnly cookie', async () => {
    const res = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ accessToken: expect.any(String), expiresIn: 900, tokenType: 'Bearer' });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^margin_refresh=[0-9a-f]{64}; /);
    expect(cookie).toContain('; Path=/api/auth;');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toMatch(/Expires=/);
    // Plain http here: the cookie is marked Secure only when the request came over https, and an
    // X-Forwarded-Proto from a proxy nobody named trusted does not say so.
    expect(cookie).not.toContain('Secure');
    const claimed = await host.api.post(
      '/auth/login',
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { 'x-forwarded-proto': 'https' },
    );
    expect(claimed.headers.get('set-cookie')).not.toContain('Secure');
  });

  it('marks the cookie Secure when a trusted proxy says the request came over https', async () => {
    const proxied = await startTestHost({ env: { MARGIN_TRUST_PROXY: 'loopback' } });
    try {
      const secure = await proxied.api.post(
        '/auth/login',
        { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
        { 'x-forwarded-proto': 'https' },
      );
      expect(secure.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });

  it('is case-insensitive for the username and accepts the token as a bearer credential', async () => {
    const res = await host.api.post('/auth/login', { username: 'ADMIN', password: ADMIN_PASSWORD });
    const me = await host.api.with({ bearer: res.body.accessToken }).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      username: ADMIN_USERNAME,
      globalRole: 'platformAdmin',
      authenticatedWith: 'accessToken',
      edition: 'Community',
      clientRoles: {},
      tenantRoles: {},
    });
    expect(me.body.capabilities).toHaveLength(5);
    expect(me.body.capabilities[0]).toEqual({
      capability: 'sso-authentication',
      requiresCommercial: true,
      overrideState: 'default',
      isAvailable: false,
      message: 'Single sign-on needs a Commercial license (sso-authentication).',
    });
  });

  it('refuses a wrong password, an unknown user and a malformed body with the right statuses', async () => {
    const wrong = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ error: 'Invalid credentials.', code: 'unauthenticated' });
    const unknown = await host.api.post('/auth/login', { username: 'ghost', password: 'whatever' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('Invalid credentials.');
    const malformed = await host.api.post('/auth/login', { username: 42 });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_failed');
    expect(malformed.body.details.map((d: { path: string }) => d.path)).toEqual(['username', 'password']);
  });

  it('accepts only the exact base64url of a token: variants that decode to the same bytes are refused', async () => {
    const token = (await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).body
      .accessToken as string;
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last character of a 32-byte signature carries two unused bits: flipping one decodes the same.
    const last = alphabet.indexOf(signature.at(-1) ?? '');
    const variants = [
      `${header}.${payload}.${signature.slice(0, -1)}${alphabet[last ^ 1]}`,
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.${signature.slice(0, 5)}!${signature.slice(5)}`,
      `${header}.${payload}!.${signature}`,
      `${header}.${payload.replace(/-/g, '+').replace(/_/g, '/')}.${signature}`,
    ].filter((variant) => variant !== token);
    expect((await host.api.with({ bearer: token }).get('/auth/me')).status).toBe(200);
    for (const variant of variants) {
      const res = await host.api.with({ bearer: variant }).get('/auth/me');
      expect(res.status, variant).toBe(401);
    }
  });

  it('answers 401 in the error shape without credentials or with a bad token', async () => {
    const anonymous = await host.api.get('/auth/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: 'Valid credentials required.', code: 'unauthenticated' });
    const forged = await host.api.with({ bearer: 'eyJhbGciOiJIUzI1NiJ9.e30.invalid' }).get('/auth/me');
    expect(forged.status).toBe(401);
    const badPat = await host.api.with({ pat: 'mgn_000000000000000000000000000000000000000000000000' }).get('/auth/me');
    expect(badPat.status).toBe(401);
  });
});

describe('refresh tokens', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  const signIn = async () => {
    const res = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    return cookiePair(res.headers.get('set-cookie')) ?? '';
  };

  it('rotates the refresh token on every refresh', async () => {
    const first = await signIn();
    const refreshed = await host.api.with({ cookie: first }).post('/auth/refresh');
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toEqual({ accessToken: expect.any(String), expiresIn: 900, tokenType: 'Bearer' });
    const second = cookiePair(refreshed.headers.get('set-cookie')) ?? '';
    expect(second).toMatch(/^margin_refresh=/);
    expect(second).not.toBe(first);
    expect((await host.api.with({ bearer: refreshed.body.accessToken }).get('/auth/me')).status).toBe(200);
    expect((await host.api.with({ cookie: second }).post('/auth/refresh')).status).toBe(200);
  });

  it('detects reuse of a rotated token and revokes the whole session', async () => {
    const first = await signIn();
    const rotated =
      cookiePair((await host.api.with({ cookie: first }).post('/auth/refresh')).headers.get('set-cookie')) ?? '';
    const replay = await host.api.with({ cookie: first }).post('/auth/refresh');
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('This refresh token was already used; the session has been revoked.');
    // The legitimate holder of the newer token is signed out too.
    expect((await host.api.with({ cookie: rotated }).post('/auth/refresh')).status).toBe(401);
  });

  it('accepts the token in the body only as a fallback, returning the rotated token there', async () => {
    const token = (await signIn()).split('=')[1];
    const res = await host.api.post('/auth/refresh', { refreshToken: token });
    expect(res.status).toBe(200);
    expect(res.body.refreshToken).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.refreshToken).not.toBe(token);
    // With a cookie present the body field is ignored and no token is echoed.
    const cookie = await signIn();
    const both = await host.api.with({ cookie }).post('/auth/refresh', { refreshToken: 'ignored' });
    expect(both.status).toBe(200);
    expect(both.body.refreshToken).toBeUndefined();
  });

  it('refuses a missing or unknown refresh token', async () => {
    expect((await host.api.post('/auth/refresh')).status).toBe(401);
    expect((await host.api.post('/auth/refresh', { refreshToken: 'f'.repeat(64) })).status).toBe(401);
  });

  it('logs out: the session ends and the cookie is cleared', async () => {
    const cookie = await signIn();
    const out = await host.api.with({ cookie }).post('/auth/logout');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^margin_refresh=; Path=\/api\/auth; Expires=Thu, 01 Jan 1970/);
    expect((await host.api.with({ cookie }).post('/auth/refresh')).status).toBe(401);
  });

  it('refuses a present but malformed refreshToken on logout with 400, as openapi.json says', async () => {
    for (const refreshToken of ['', null, 42, 'x'.repeat(100_000)]) {
      const res = await host.api.post('/auth/logout', { refreshToken });
      expect(res.status, JSON.stringify(refreshToken).slice(0, 20)).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: [{ path: 'refreshToken' }] });
    }
    const cookie = await signIn();
    const withCookie = await host.api.with({ cookie }).post('/auth/logout', { refreshToken: 42 });
    expect(withCookie.status).toBe(400);
    // Refused before anything was revoked: the session still refreshes.
    expect((await host.api.with({ cookie }).post('/auth/refresh')).status).toBe(200);
  });

  it('stays idempotent: a well-formed unknown token, no body at all, or a body token twice answer 204', async () => {
    expect((await host.api.post('/auth/logout', { refreshToken: 'f'.repeat(64) })).status).toBe(204);
    expect((await host.api.post('/auth/logout')).status).toBe(204);
    const login = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    const refreshToken = cookiePair(login.headers.get('set-cookie'))?.split('=')[1];
    expect((await host.api.post('/auth/logout', { refreshToken })).status).toBe(204);
    expect((await host.api.post('/auth/logout', { refreshToken })).status).toBe(204);
    expect((await host.api.post('/auth/refresh', { refreshToken })).status).toBe(401);
  });
});

describe('session limits (on a manual clock)', () => {
  const clock = createManualClock('2026-03-01T09:00:00.000Z');
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ clock });
  });
  afterAll(async () => {
    await host.close();
  });

  it('ends a session idle for more than 8 hours, and any session after 72 hours', async () => {
    const login = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    let cookie = cookiePair(login.headers.get('set-cookie')) ?? '';
    for (let i = 0; i < 10; i++) {
      clock.advance(7 * 3600_000); // under the idle limit each time: 70 h in all
      const res = await host.api.with({ cookie }).post('/auth/refresh');
      expect(res.status, `refresh ${i}`).toBe(200);
      cookie = cookiePair(res.headers.get('set-cookie')) ?? '';
    }
    clock.advance(3 * 3600_000); // 73 h after sign-in
    expect((await host.api.with({ cookie }).post('/auth/refresh')).status).toBe(401);

    const idle = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    clock.advance(8 * 3600_000 + 1000);
    expect(
      (await host.api.with({ cookie: cookiePair(idle.headers.get('set-cookie')) }).post('/auth/refresh')).status,
    ).toBe(401);
  });

  it('expires access tokens after 15 minutes', async () => {
    const login = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    const api = host.api.with({ bearer: login.body.accessToken });
    clock.advance(14 * 60_000);
    expect((await api.get('/auth/me')).status).toBe(200);
    clock.advance(2 * 60_000);
    expect((await api.get('/auth/me')).status).toBe(401);
  });
});

describe('sign-in lockout per username and source address (on a manual clock)', () => {
  const clock = createManualClock('2026-03-01T09:00:00.000Z');
  let host: TestHost;
  beforeAll(async () => {
    // Loopback is the trusted proxy here, so X-Forwarded-For stands for the caller's address.
    host = await startTestHost({ clock, env: { MARGIN_TRUST_PROXY: 'loopback' } });
    // Before the clock moves: the admin's access token lives 15 minutes.
    for (const name of ['locky', 'real-user', 'targeted']) await host.createUser(name);
  });
  afterAll(async () => {
    await host.close();
  });
  const from = (address: string, username: string, password: string) =>
    host.api.post('/auth/login', { username, password }, { 'x-forwarded-for': address });
  const answer = (res: { status: number; body: Record<string, unknown> }) => {
    const { requestId: _ignored, ...body } = res.body;
    return { status: res.status, body };
  };
  const REFUSED = { status: 401, body: { error: 'Invalid credentials.', code: 'unauthenticated' } };

  it('locks one username from one address after 5 failures; the right password from elsewhere still works', async () => {
    for (let i = 0; i < 5; i++) expect(answer(await from('198.51.100.10', 'locky', 'wrong-password'))).toEqual(REFUSED);
    // The locked pair refuses even the right password, in the words of any failure...
    expect(answer(await from('198.51.100.10', 'locky', TEST_USER_PASSWORD))).toEqual(REFUSED);
    // ...while the owner, signing in from another address, gets in.
    expect((await from('203.0.113.20', 'locky', TEST_USER_PASSWORD)).status).toBe(200);

    clock.advance(14 * 60_000);
    expect(answer(await from('198.51.100.10', 'locky', TEST_USER_PASSWORD))).toEqual(REFUSED);
    clock.advance(61_000);
    // Unlocked; a second streak of five locks that pair for 30 minutes, a third for 60 at most.
    for (let i = 0; i < 5; i++) expect(answer(await from('198.51.100.10', 'locky', 'wrong-password'))).toEqual(REFUSED);
    clock.advance(29 * 60_000);
    expect(answer(await from('198.51.100.10', 'locky', TEST_USER_PASSWORD))).toEqual(REFUSED);
    clock.advance(61_000);
    expect((await from('198.51.100.10', 'locky', TEST_USER_PASSWORD)).status).toBe(200);
  });

  it('answers a locked pair and an unknown username alike, so no answer tells whether a user exists', async () => {
    for (let i = 0; i < 5; i++) await from('198.51.100.11', 'real-user', 'wrong-password');
    const locked = answer(await from('198.51.100.11', 'real-user', TEST_USER_PASSWORD));
    const unknown = answer(await from('198.51.100.11', 'no-such-user', 'whatever-password'));
    const wrong = answer(await from('198.51.100.12', 'real-user', 'wrong-password'));
    expect(locked).toEqual(REFUSED);
    expect(unknown).toEqual(locked);
    expect(wrong).toEqual(locked);
    // An unknown username is counted and locked the same way an existing one is.
    for (let i = 0; i < 6; i++) expect(answer(await from('198.51.100.13', 'ghost-user', 'x'))).toEqual(REFUSED);
  });

  it('slows a username down across many addresses, but never refuses the right password from elsewhere', async () => {
    const slept = clock.sleeps.length;
    for (let i = 1; i <= 30; i++) expect((await from(`192.0.2.${i}`, 'targeted', 'wrong-password')).status).toBe(401);
    const ok = await from('203.0.113.99', 'targeted', TEST_USER_PASSWORD);
    expect(ok.status).toBe(200);
    // The later attempts waited before being answered, the owner's too.
    const waits = clock.sleeps.slice(slept);
    expect(waits.length).toBeGreaterThan(20);
    expect(Math.max(...waits)).toBeGreaterThanOrEqual(1000);
  });
});

describe('the per-IP limit on credential endpoints', () => {
  let host: TestHost;
  afterEach(async () => {
    await host.close();
  });

  it('answers 429 with Retry-After once the window’s permits are used', async () => {
    host = await startTestHost({
      env: { MARGIN_AUTH_RATELIMIT_PERMITS: '3', MARGIN_AUTH_RATELIMIT_WINDOW_SECONDS: '60' },
    });
    for (let i = 0; i < 3; i++)
      expect((await host.api.post('/auth/login', { username: 'x', password: 'y' })).status).toBe(401);
    const limited = await host.api.post('/auth/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({
      code: 'rate_limited',
      error: 'Too many attempts from this address. Try again later.',
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The refresh endpoint shares the limit; other endpoints do not.
    expect((await host.api.post('/auth/refresh')).status).toBe(429);
    expect((await host.api.get('/healthz')).status).toBe(200);
  });

  it('cannot be dodged by rotating X-Forwarded-For: without MARGIN_TRUST_PROXY the gateway is the edge', async () => {
    host = await startTestHost({
      env: { MARGIN_AUTH_RATELIMIT_PERMITS: '3', MARGIN_AUTH_RATELIMIT_WINDOW_SECONDS: '60' },
    });
    const attempt = (i: number) =>
      host.api.post('/auth/login', { username: 'x', password: 'y' }, { 'x-forwarded-for': `198.51.100.${i}` });
    for (let i = 0; i < 3; i++) expect((await attempt(i)).status).toBe(401);
    for (let i = 3; i < 6; i++) expect((await attempt(i)).status).toBe(429);
  });

  it('takes the client address from X-Forwarded-For only when the proxy is one the operator named', async () => {
    host = await startTestHost({
      env: {
        MARGIN_AUTH_RATELIMIT_PERMITS: '3',
        MARGIN_AUTH_RATELIMIT_WINDOW_SECONDS: '60',
        MARGIN_TRUST_PROXY: '127.0.0.1/8, ::1',
      },
    });
    const from = (address: string) =>
      host.api.post('/auth/login', { username: 'x', password: 'y' }, { 'x-forwarded-for': address });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.1')).status).toBe(401);
    expect((await from('198.51.100.1')).status).toBe(429);
    // Another client behind the same trusted proxy has its own budget.
    expect((await from('198.51.100.2')).status).toBe(401);
  });
});
