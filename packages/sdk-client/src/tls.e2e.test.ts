import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarginClient } from './client.js';

describe('the SDK over HTTPS with a self-signed certificate', () => {
  let host: TestHost;
  let https: NonNullable<TestHost['https']>;
  beforeAll(async () => {
    // Port 0: the default 8443 would collide between parallel test hosts.
    host = await startTestHost({ env: { MARGIN_TLS_PORT: '0' } });
    if (!host.https) throw new Error('HTTPS is not serving');
    https = host.https;
  });
  afterAll(async () => {
    await host.close();
  });

  const client = (ca?: string) =>
    createMarginClient({
      baseUrl: `${https.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      retries: 0,
      ca,
    });

  it('signs in and calls the API when given the server’s certificate as `ca`', async () => {
    const me = await client(https.certificate).identity.getMe();
    expect(me.username).toBe(ADMIN_USERNAME);
  });

  it('refuses the server without it: verification is never skipped', async () => {
    const refused = await client()
      .identity.getMe()
      .then(
        () => undefined,
        (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
      );
    expect(refused).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
  });

  it('refuses a server whose certificate is not the one given', async () => {
    const other = await startTestHost({ env: { MARGIN_TLS_PORT: '0' } });
    try {
      const wrong = await client(other.https?.certificate)
        .identity.getMe()
        .then(
          () => undefined,
          (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
        );
      expect(wrong).toMatch(/SELF_SIGNED|UNABLE_TO_VERIFY/);
    } finally {
      await other.close();
    }
  });
});
