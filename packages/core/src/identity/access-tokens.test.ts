import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAccessTokens } from './access-tokens.js';

const SECRET = 'a-signing-secret-that-is-long-enough!';
const now = new Date('2026-02-01T12:00:00Z');
const tokens = createAccessTokens(SECRET, 900);
const claims = { userId: 'u1', username: 'ada', globalRole: 'user' as const };

const forge = (header: object, payload: object, secret = SECRET) => {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${h}.${p}.${createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url')}`;
};
const base = {
  sub: 'u1',
  name: 'ada',
  role: 'user',
  iss: 'margin',
  aud: 'margin-api',
  iat: now.getTime() / 1000,
  exp: now.getTime() / 1000 + 900,
};

describe('access tokens', () => {
  it('round-trips a standard HS256 JWT', async () => {
    const token = await tokens.issue(claims, now);
    expect(token.split('.')).toHaveLength(3);
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString())).toEqual({
      alg: 'HS256',
      typ: 'JWT',
    });
    expect(await tokens.verify(token, now)).toEqual(claims);
    expect(await tokens.verify(forge({ alg: 'HS256', typ: 'JWT' }, base), now)).toEqual(claims);
  });

  it('expires after its lifetime (with 30 s of clock tolerance)', async () => {
    const token = await tokens.issue(claims, now);
    expect(await tokens.verify(token, new Date(now.getTime() + 929_000))).toEqual(claims);
    expect(await tokens.verify(token, new Date(now.getTime() + 931_000))).toBeUndefined();
  });

  it('checks the time on every use of a token it has already verified, in both directions', async () => {
    const early = forge({ alg: 'HS256' }, { ...base, iat: base.iat + 120, exp: base.exp + 120 });
    expect(await tokens.verify(early, now)).toBeUndefined(); // issued two minutes ahead of this clock
    expect(await tokens.verify(early, new Date(now.getTime() + 120_000))).toEqual(claims);
    expect(await tokens.verify(early, now)).toBeUndefined();
    expect(await tokens.verify(early, new Date(now.getTime() + 1_200_000))).toBeUndefined();
  });

  it('refuses another secret, a tampered payload, other algorithms, issuers and audiences, and garbage', async () => {
    const token = await tokens.issue(claims, now);
    expect(await createAccessTokens('another-secret-that-is-long-enough!!', 900).verify(token, now)).toBeUndefined();
    const [h, , s] = token.split('.');
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...base, role: 'platformAdmin' })).toString('base64url')}.${s}`;
    expect(await tokens.verify(tampered, now)).toBeUndefined();
    expect(await tokens.verify(forge({ alg: 'none' }, base), now)).toBeUndefined();
    expect(await tokens.verify(forge({ alg: 'HS256' }, { ...base, iss: 'elsewhere' }), now)).toBeUndefined();
    expect(await tokens.verify(forge({ alg: 'HS256' }, { ...base, aud: 'other' }), now)).toBeUndefined();
    expect(await tokens.verify(forge({ alg: 'HS256' }, { ...base, exp: undefined }), now)).toBeUndefined();
    for (const junk of ['', 'a.b', 'a.b.c', '..', 'x.y.z.w']) expect(await tokens.verify(junk, now)).toBeUndefined();
  });
});
