import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatibleProfile, type FakeOpenAi, openAiProfile, startFakeOpenAi } from '../testing/ai-test-kit.js';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

const KEY = 'sk-canary-tenant-policy-4b1e90d2';

for (const dialect of testDialects()) {
  describe(`tenant AI policy (${dialect})`, () => {
    let fake: FakeOpenAi;
    let host: TestHost;
    let admin: TestApi;
    let tenantAdmin: TestApi;
    let tenantId: string;
    let clientId: string;
    let savedBefore: string;
    const policy = () => `/admin/tenants/${tenantId}/ai-policy`;
    const conn = () => `/clients/${clientId}/ai-connections`;
    /** The fake is on 127.0.0.1; `localhost` names the same server under another host. */
    const viaLocalhost = () => fake.apiRoot.replace('127.0.0.1', 'localhost');

    beforeAll(async () => {
      fake = await startFakeOpenAi();
      host = await startTestHost({ dialect, env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } });
      admin = await host.admin();
      // Community first: the policy is per-tenant configuration, which needs Commercial.
      const refused = await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/ai-policy`, {
        permittedProviderKinds: ['kindCompatible'],
        permittedHosts: null,
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'license_required', capability: 'multi-tenancy' });

      expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
      tenantId = (await admin.post('/admin/tenants', { displayName: 'Acme' })).body.id;
      const ta = await host.createUser('acme-admin');
      await admin.put(`/admin/tenants/${tenantId}/members/${ta.id}`, { role: 'TenantAdministrator' });
      tenantAdmin = ta.api;
      clientId = (await admin.post('/clients', { displayName: 'Acme web', tenantId })).body.id;
      const saved = await admin.post(conn(), compatibleProfile(fake.apiRoot, KEY, { displayName: 'Before' }));
      expect(saved.status).toBe(201);
      savedBefore = saved.body.id;
      expect((await admin.post(`${conn()}/${savedBefore}/verify`)).body.status).toBe('verified');
    });
    afterAll(async () => {
      await host.close();
      await fake.close();
    });

    it('starts unrestricted and refuses malformed policies', async () => {
      const initial = await tenantAdmin.get(policy());
      expect(initial.status).toBe(200);
      expect(initial.body).toEqual({
        tenantId,
        permittedProviderKinds: null,
        permittedHosts: null,
        isRestricted: false,
        updatedAt: null,
      });
      const providers = await admin.get(`${conn()}/permitted-providers`);
      expect(providers.body.isRestricted).toBe(false);

      for (const body of [
        { permittedProviderKinds: null, permittedHosts: ['not a host'] },
        { permittedProviderKinds: null, permittedHosts: ['https://api.example.com'] },
        { permittedProviderKinds: null },
        { permittedProviderKinds: null, permittedHosts: null, extra: true },
      ]) {
        const res = await admin.put(policy(), body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('validation_failed');
      }
      const missing = await admin.put('/admin/tenants/00000000-0000-4000-8000-000000000000/ai-policy', {
        permittedProviderKinds: null,
        permittedHosts: null,
      });
      expect(missing.status).toBe(404);
    });

    it('stores a policy, records it in the audit trail and reflects it in permitted-providers', async () => {
      const put = await admin.put(policy(), {
        permittedProviderKinds: ['kindCompatible', 'kindCompatible'],
        permittedHosts: ['LOCALHOST', '.example.com'],
      });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({
        tenantId,
        permittedProviderKinds: ['kindCompatible'],
        permittedHosts: ['localhost', '.example.com'],
        isRestricted: true,
        updatedAt: expect.any(String),
      });
      expect((await tenantAdmin.get(policy())).body).toEqual(put.body);

      const providers = await admin.get(`${conn()}/permitted-providers`);
      expect(providers.status).toBe(200);
      expect(providers.body.isRestricted).toBe(true);
      const permitted = Object.fromEntries(
        providers.body.providers.map((p: { providerKind: string; isPermitted: boolean }) => [
          p.providerKind,
          p.isPermitted,
        ]),
      );
      expect(permitted.kindCompatible).toBe(true);
      expect(permitted.kindDirect).toBe(false);

      const audit = await tenantAdmin.get(`/admin/tenants/${tenantId}/audit`);
      expect(audit.status).toBe(200);
      expect(audit.body.items[0]).toMatchObject({
        tenantId,
        action: 'policy.updated',
        resourceType: 'policy',
        summary: 'set the AI policy: provider kinds kindCompatible; hosts localhost, .example.com',
      });
    });

    it('refuses a disallowed kind and a disallowed host at save, and accepts an allowed one', async () => {
      const kind = await admin.post(conn(), openAiProfile());
      expect(kind.status).toBe(400);
      expect(kind.body.code).toBe('validation_failed');
      expect(kind.body.error).toContain('tenant AI policy does not permit the provider kind kindDirect');

      const host127 = await admin.post(conn(), compatibleProfile(fake.apiRoot, KEY, { displayName: 'Loopback' }));
      expect(host127.status).toBe(400);
      expect(host127.body.error).toContain('tenant AI policy does not permit the host 127.0.0.1');

      // `.example.com` is every host below example.com, not example.com itself.
      const apex = await admin.post(conn(), compatibleProfile('https://example.com/v1', KEY, { displayName: 'Apex' }));
      expect(apex.status).toBe(400);
      const below = await admin.post(
        conn(),
        compatibleProfile('https://models.example.com/v1', KEY, { displayName: 'Below' }),
      );
      expect(below.status).toBe(201);

      const allowed = await admin.post(conn(), compatibleProfile(viaLocalhost(), KEY, { displayName: 'Allowed' }));
      expect(allowed.status).toBe(201);
      // Moving an allowed profile to a refused host is refused too.
      const moved = await admin.patch(`${conn()}/${allowed.body.id}`, {
        baseUrl: fake.apiRoot,
        auth: { mode: 'apiKey', apiKey: KEY },
      });
      expect(moved.status).toBe(400);
      expect(moved.body.error).toContain('tenant AI policy');

      // Probing sends the key too, so it is held to the same rule.
      const probe = await admin.post(`${conn()}/probe`, {
        providerKind: 'kindCompatible',
        baseUrl: fake.apiRoot,
        auth: { mode: 'apiKey', apiKey: KEY },
      });
      expect(probe.status).toBe(400);
    });

    it('fails a profile saved before the policy at use, with category policy, calling nothing', async () => {
      const calls = fake.requests.length;
      const verified = await admin.post(`${conn()}/${savedBefore}/verify`);
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ status: 'failed', failureCategory: 'policy' });
      expect(verified.body.summary).toContain('tenant AI policy does not permit the host 127.0.0.1');
      expect(fake.requests.length).toBe(calls);
      expect(JSON.stringify(verified.body)).not.toContain(KEY);

      // Lifting the policy lets the same profile verify again.
      expect((await admin.put(policy(), { permittedProviderKinds: null, permittedHosts: null })).status).toBe(200);
      expect((await admin.post(`${conn()}/${savedBefore}/verify`)).body.status).toBe('verified');
      expect((await admin.get(`${conn()}/permitted-providers`)).body.isRestricted).toBe(false);
    });
  });
}
