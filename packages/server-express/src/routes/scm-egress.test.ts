import type { LookupAddress } from 'node:dns';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { createProviderRegistry } from '@margin/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

const CANARY = 'glpat-canary-rebinding-token-3f7a1c9e';

/**
 * Source-control calls go through the same guarded transport as AI calls: the address is checked on
 * the connection actually made, so a name that resolves to a cloud metadata or link-local address
 * (DNS rebinding, or simply a hostile DNS record) is never called with the stored token.
 */
describe('source-control egress', () => {
  let host: TestHost;
  let admin: TestApi;
  const resolved: string[] = [];

  beforeAll(async () => {
    // Names under rebind.test resolve wherever the test says; nothing reaches real DNS.
    const answers: Record<string, string> = {
      'metadata.rebind.test': '169.254.169.254',
      'link-local.rebind.test': '169.254.10.20',
      'zero.rebind.test': '0.0.0.0',
    };
    const lookup = ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
      resolved.push(hostname);
      const address = answers[hostname];
      if (!address) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      callback(null, [{ address, family: 4 } satisfies LookupAddress]);
    }) as unknown as typeof import('node:dns').lookup;
    host = await startTestHost({ providers: createProviderRegistry({ lookup }), env: { LOG_LEVEL: 'trace' } });
    admin = await host.admin();
  });
  afterAll(async () => {
    await host.close();
  });

  it.each(['metadata.rebind.test', 'link-local.rebind.test', 'zero.rebind.test'])(
    'refuses %s at connect time and records it as egressRefused',
    async (name) => {
      const clientId = (await admin.post('/clients', { displayName: name, tenantId: SYSTEM_TENANT_ID })).body.id;
      const created = await admin.post(`/clients/${clientId}/provider-connections`, {
        providerFamily: 'gitHostB',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: `http://${name}`,
        secret: CANARY,
      });
      // The name is not an address, so saving it is fine; the check happens where it matters.
      expect(created.status).toBe(201);
      const res = await admin.post(`/clients/${clientId}/provider-connections/${created.body.id}/verify`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        verificationStatus: 'failed',
        lastVerificationFailureCategory: 'egressRefused',
        lastVerificationError: `Margin refused to call http://${name}: it redirected elsewhere, or resolved to a link-local, reserved or cloud metadata address.`,
      });
      expect(resolved).toContain(name);
      expect(JSON.stringify(res.body)).not.toContain(CANARY);
      expect(host.rawLogs()).not.toContain(CANARY);
    },
  );
});
