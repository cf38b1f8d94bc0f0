import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { scopedClient } from '../testing/triggers-test-support.js';

/** A request with headers fetch will not send (`Host`), as any client on the network can. */
function rawPost(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('webhook listener URLs', () => {
  let fakes: ScmFakes;
  beforeAll(async () => {
    fakes = await startScmFakes();
  });
  afterAll(async () => {
    await fakes?.close();
  });

  const create = async (host: TestHost, admin: TestApi, headers: Record<string, string> = {}) => {
    const scoped = await scopedClient(admin, fakes, 'github', 'Listener client');
    return rawPost(
      `${host.url}/api/admin/webhook-configurations`,
      {
        clientId: scoped.clientId,
        provider: 'gitHostA',
        organizationScopeId: scoped.scopeId,
        providerProjectKey: 'acme',
      },
      { authorization: `Bearer ${admin.credentials.bearer}`, ...headers },
    );
  };

  it('are never built from the request’s Host: without MARGIN_PUBLIC_BASE_URL they use the listen address and say so', async () => {
    const host = await startTestHost({ providers: fakes.providers, env: { WORKER_ENABLED: 'false' } });
    try {
      const admin = await host.admin();
      const res = await create(host, admin, {
        host: 'attacker.example',
        'x-forwarded-host': 'attacker.example',
        'x-forwarded-proto': 'https',
      });
      expect(res.status).toBe(201);
      expect(res.body.listenerUrl).toMatch(new RegExp(`^${host.url}/webhooks/v1/providers/gitHostA/[0-9a-f]{32}$`));
      expect(res.body.listenerUrlSource).toBe('listenAddress');
      expect(res.body.warnings).toEqual([
        `MARGIN_PUBLIC_BASE_URL is not set, so listenerUrl uses the address this host listens on (${host.url}), which providers may not reach. Set MARGIN_PUBLIC_BASE_URL to the URL providers post to.`,
      ]);
      const read = await admin.get(`/admin/webhook-configurations/${res.body.id}`);
      expect(read.body).toMatchObject({ listenerUrl: res.body.listenerUrl, listenerUrlSource: 'listenAddress' });
    } finally {
      await host.close();
    }
  });

  it('come from MARGIN_PUBLIC_BASE_URL when it is set, without a warning', async () => {
    const host = await startTestHost({
      providers: fakes.providers,
      env: { WORKER_ENABLED: 'false', MARGIN_PUBLIC_BASE_URL: 'https://reviews.example.com/' },
    });
    try {
      const res = await create(host, await host.admin(), { host: 'attacker.example' });
      expect(res.status).toBe(201);
      expect(res.body.listenerUrl).toMatch(/^https:\/\/reviews\.example\.com\/webhooks\/v1\/providers\/gitHostA\//);
      expect(res.body).toMatchObject({ listenerUrlSource: 'publicBaseUrl', warnings: [] });
    } finally {
      await host.close();
    }
  });
});
