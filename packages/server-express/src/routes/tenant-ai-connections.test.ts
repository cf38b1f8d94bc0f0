import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_MODEL, compatibleProfile, type FakeOpenAi, startFakeOpenAi } from '../testing/ai-test-kit.js';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

const KEY = 'sk-canary-tenant-connection-6d0c21f4';
const ROTATED = 'sk-canary-tenant-connection-rotated-93ab';

for (const dialect of testDialects()) {
  describe(`tenant-owned AI connections (${dialect})`, () => {
    let fake: FakeOpenAi;
    let host: TestHost;
    let admin: TestApi;
    let tenantAdmin: TestApi;
    let otherTenantAdmin: TestApi;
    let clientAdmin: TestApi;
    let tenantAdminId: string;
    let acme: string;
    let other: string;
    let acmeClient: string;
    let otherClient: string;
    let connection: { id: string; chat: string };
    const conns = (tenantId = acme) => `/tenants/${tenantId}/ai-connections`;
    const chatOf = (body: { configuredModels: Array<{ id: string; remoteModelId: string }> }) =>
      body.configuredModels.find((m) => m.remoteModelId === CHAT_MODEL)?.id ?? '';

    beforeAll(async () => {
      fake = await startFakeOpenAi();
      host = await startTestHost({ dialect, env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } });
      admin = await host.admin();
      expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
      acme = (await admin.post('/admin/tenants', { displayName: 'Acme' })).body.id;
      other = (await admin.post('/admin/tenants', { displayName: 'Other' })).body.id;
      const ta = await host.createUser('acme-admin');
      const ota = await host.createUser('other-admin');
      const ca = await host.createUser('acme-client-admin');
      await admin.put(`/admin/tenants/${acme}/members/${ta.id}`, { role: 'TenantAdministrator' });
      await admin.put(`/admin/tenants/${other}/members/${ota.id}`, { role: 'TenantAdministrator' });
      acmeClient = (await admin.post('/clients', { displayName: 'Acme web', tenantId: acme })).body.id;
      otherClient = (await admin.post('/clients', { displayName: 'Other web', tenantId: other })).body.id;
      await admin.put(`/clients/${acmeClient}/members/${ca.id}`, { role: 'ClientAdministrator' });
      tenantAdmin = ta.api;
      tenantAdminId = ta.id;
      otherTenantAdmin = ota.api;
      clientAdmin = ca.api;
    });
    afterAll(async () => {
      await host.close();
      await fake.close();
    });

    it('lets the tenant administrator create, list, read, change, verify and activate one, never returning the key', async () => {
      const created = await tenantAdmin.post(conns(), compatibleProfile(fake.apiRoot, KEY, { displayName: 'Shared' }));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        clientId: null,
        ownerTenantId: acme,
        displayName: 'Shared',
        providerKind: 'kindCompatible',
        auth: { mode: 'apiKey', hasApiKey: true },
        isActive: false,
        verification: { status: 'neverVerified' },
      });
      connection = { id: created.body.id, chat: chatOf(created.body) };
      const one = `${conns()}/${connection.id}`;

      expect(
        (await tenantAdmin.post(conns(), compatibleProfile(fake.apiRoot, KEY, { displayName: 'SHARED' }))).status,
      ).toBe(409);
      const second = await tenantAdmin.post(conns(), compatibleProfile(fake.apiRoot, KEY, { displayName: 'Spare' }));
      expect(second.status).toBe(201);
      const page = await tenantAdmin.get(`${conns()}?limit=1`);
      expect(page.status).toBe(200);
      expect(page.body.items.map((c: { id: string }) => c.id)).toEqual([connection.id]);
      const rest = await tenantAdmin.get(`${conns()}?limit=1&cursor=${encodeURIComponent(page.body.nextCursor)}`);
      expect(rest.body).toMatchObject({ items: [{ id: second.body.id }], nextCursor: null });
      // A tenant's connections are not its clients': the client list stays empty.
      expect((await admin.get(`/clients/${acmeClient}/ai-connections`)).body.items).toEqual([]);

      const read = await tenantAdmin.get(one);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(created.body);

      const verified = await tenantAdmin.post(`${one}/verify`);
      expect(verified.status).toBe(200);
      expect(verified.body.status).toBe('verified');
      const activated = await tenantAdmin.post(`${one}/activate`);
      expect(activated.status).toBe(200);
      expect(activated.body).toMatchObject({ isActive: true, verification: { status: 'verified' } });

      // A rename keeps it in service; a new key takes it out until verified and activated again.
      const renamed = await tenantAdmin.patch(one, { displayName: 'Shared models' });
      expect(renamed.body).toMatchObject({ displayName: 'Shared models', isActive: true });
      const rotated = await tenantAdmin.patch(one, { auth: { mode: 'apiKey', apiKey: ROTATED } });
      expect(rotated.status).toBe(200);
      expect(rotated.body).toMatchObject({ isActive: false, verification: { status: 'neverVerified' } });
      expect((await tenantAdmin.post(`${one}/activate`)).status).toBe(400);
      expect((await admin.post(`${one}/verify`)).body.status).toBe('verified');
      expect((await admin.post(`${one}/activate`)).body.isActive).toBe(true);
      expect(fake.requests.some((r) => r.headers.authorization === `Bearer ${ROTATED}`)).toBe(true);

      const providers = await tenantAdmin.get(`${conns()}/permitted-providers`);
      expect(providers.status).toBe(200);
      expect(providers.body.isRestricted).toBe(false);
      const discovered = await tenantAdmin.post(`${conns()}/discover-models`, {
        providerKind: 'kindCompatible',
        baseUrl: fake.apiRoot,
        auth: { mode: 'apiKey', apiKey: KEY },
      });
      expect(discovered.status).toBe(200);
      expect(discovered.body.models.map((m: { remoteModelId: string }) => m.remoteModelId)).toContain(CHAT_MODEL);

      const defined = await tenantAdmin.post(`/tenants/${acme}/model-catalog/models`, {
        providerKind: 'kindCompatible',
        remoteModelId: 'acme-extra',
      });
      expect(defined.status).toBe(201);
      const attached = await tenantAdmin.post(`${conns()}/${second.body.id}/catalog-models`, {
        catalogModelId: defined.body.id,
      });
      expect(attached.status).toBe(200);
      expect(attached.body.configuredModels.map((m: { remoteModelId: string }) => m.remoteModelId)).toContain(
        'acme-extra',
      );
      expect((await tenantAdmin.delete(`${conns()}/${second.body.id}`)).status).toBe(204);
      expect((await tenantAdmin.get(`${conns()}/${second.body.id}`)).status).toBe(404);

      const everything = JSON.stringify([created.body, read.body, rotated.body, page.body, rest.body]);
      expect(everything).not.toContain(KEY);
      expect(everything).not.toContain(ROTATED);
    });

    it('keeps them out of the System tenant (400), and out of Community (409)', async () => {
      const system = await admin.post(conns(SYSTEM_TENANT_ID), compatibleProfile(fake.apiRoot, KEY));
      expect(system.status).toBe(400);
      expect(system.body.code).toBe('validation_failed');
      expect((await admin.patch('/admin/licensing', { edition: 'Community' })).status).toBe(200);
      try {
        const community = await admin.post(conns(), compatibleProfile(fake.apiRoot, KEY, { displayName: 'Later' }));
        expect(community.status).toBe(409);
        expect(community.body).toMatchObject({ code: 'license_required', capability: 'multi-tenancy' });
      } finally {
        expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
      }
    });

    it('is for the tenant’s administrators and the platform administrator only', async () => {
      const one = `${conns()}/${connection.id}`;
      // Another tenant's administrator does not learn the tenant or the connection exists.
      for (const [method, path] of [
        ['GET', conns()],
        ['GET', one],
        ['PATCH', one],
        ['DELETE', one],
        ['POST', `${one}/verify`],
        ['POST', `${one}/activate`],
        ['POST', conns()],
      ] as const) {
        const body =
          method === 'GET' || method === 'DELETE'
            ? undefined
            : path === conns()
              ? compatibleProfile(fake.apiRoot, KEY)
              : {};
        expect((await otherTenantAdmin.request(method, path, body)).status, `${method} ${path}`).toBe(404);
        // A client administrator of one of the tenant's clients holds no tenant role: 404 too.
        expect((await clientAdmin.request(method, path, body)).status, `${method} ${path}`).toBe(404);
      }
      // Nor is the connection reachable as another owner's: not as the client's, not as the other tenant's.
      expect((await clientAdmin.get(`/clients/${acmeClient}/ai-connections/${connection.id}`)).status).toBe(404);
      expect((await admin.get(`/clients/${acmeClient}/ai-connections/${connection.id}`)).status).toBe(404);
      expect((await admin.get(`${conns(other)}/${connection.id}`)).status).toBe(404);
      expect((await otherTenantAdmin.get(`${conns(other)}/${connection.id}`)).status).toBe(404);
      expect((await host.api.get(conns())).status).toBe(401);
      expect((await admin.get(one)).status).toBe(200);
    });

    it('serves the tenant’s clients through its catalog, never another tenant’s, and never shows them the key', async () => {
      const entries = `/tenants/${acme}/logical-models`;
      const target = { capability: 'chat', connectionId: connection.id, configuredModelId: connection.chat };
      expect((await tenantAdmin.post(entries, { name: 'review', ...target })).status).toBe(201);
      // Another tenant's catalog, and a client override, cannot point at it.
      const foreign = await admin.post(`/tenants/${other}/logical-models`, { name: 'borrowed', ...target });
      expect(foreign.status).toBe(400);
      expect(foreign.body.details[0].path).toBe('connectionId');
      const override = await admin.post(`/clients/${acmeClient}/logical-models/overrides`, { name: 'mine', ...target });
      expect(override.status).toBe(400);
      expect(
        (
          await admin.put(`/clients/${otherClient}/logical-models/purposes/reviewDefault`, {
            logicalModelName: 'review',
          })
        ).status,
      ).toBe(400);

      const mapped = await clientAdmin.put(`/clients/${acmeClient}/logical-models/purposes/reviewDefault`, {
        logicalModelName: 'review',
      });
      expect(mapped.status).toBe(200);
      const resolved = await host.core.ai.resolvePurpose(acmeClient, 'reviewDefault');
      expect(resolved).toMatchObject({ via: 'logicalModel', logicalModelName: 'review', connectionId: connection.id });
      expect((await resolved.model.chat({ messages: [{ role: 'user', content: 'hi' }] })).text).toBe('OK');

      const effective = await clientAdmin.get(`/clients/${acmeClient}/logical-models`);
      expect(effective.status).toBe(200);
      expect(effective.body.items).toContainEqual(
        expect.objectContaining({ name: 'review', scope: 'tenant', connectionId: connection.id }),
      );
      expect(JSON.stringify(effective.body)).not.toContain(ROTATED);
      expect(JSON.stringify(effective.body)).not.toContain(fake.apiRoot);

      // The entry protects the connection it points at.
      const del = await tenantAdmin.delete(`${conns()}/${connection.id}`);
      expect(del.status).toBe(409);
      expect(del.body).toMatchObject({ code: 'conflict', logicalModels: [{ name: 'review', scope: 'tenant' }] });
    });

    it('holds them to the tenant AI policy at save (400) and at use (category policy)', async () => {
      const policy = `/admin/tenants/${acme}/ai-policy`;
      expect((await admin.put(policy, { permittedProviderKinds: null, permittedHosts: ['.example.com'] })).status).toBe(
        200,
      );
      try {
        const refused = await tenantAdmin.post(conns(), compatibleProfile(fake.apiRoot, KEY, { displayName: 'Loop' }));
        expect(refused.status).toBe(400);
        expect(refused.body.error).toContain('tenant AI policy does not permit the host 127.0.0.1');
        expect((await tenantAdmin.get(`${conns()}/permitted-providers`)).body.isRestricted).toBe(true);

        const calls = fake.requests.length;
        const verified = await tenantAdmin.post(`${conns()}/${connection.id}/verify`);
        expect(verified.status).toBe(200);
        expect(verified.body).toMatchObject({ status: 'failed', failureCategory: 'policy' });
        // The client's purpose, resolved through the catalog, fails before the key is opened.
        await expect(host.core.ai.resolvePurpose(acmeClient, 'reviewDefault')).rejects.toThrow(
          /tenant AI policy does not permit the host/,
        );
        expect(fake.requests.length).toBe(calls);
      } finally {
        expect((await admin.put(policy, { permittedProviderKinds: null, permittedHosts: null })).status).toBe(200);
      }
      expect((await tenantAdmin.post(`${conns()}/${connection.id}/verify`)).body.status).toBe('verified');
    });

    it('records every change in the tenant’s audit trail, with its actor and without the key', async () => {
      const audit = await tenantAdmin.get(`/admin/tenants/${acme}/audit?limit=200`);
      expect(audit.status).toBe(200);
      const entries = (
        audit.body.items as Array<{
          action: string;
          resourceType: string;
          actorUserId: string;
          clientId: string | null;
        }>
      ).filter((e) => e.resourceType === 'aiConnection');
      const actions = entries.map((e) => e.action);
      for (const action of [
        'aiConnection.created',
        'aiConnection.updated',
        'aiConnection.activated',
        'aiConnection.deleted',
      ]) {
        expect(actions).toContain(action);
      }
      expect(entries.filter((e) => e.actorUserId === tenantAdminId).length).toBeGreaterThanOrEqual(4);
      expect(entries.every((e) => e.clientId === null)).toBe(true);
      expect(entries.find((e) => e.action === 'aiConnection.updated' && e.actorUserId === tenantAdminId)).toMatchObject(
        {
          summary: expect.stringMatching(/^changed /),
        },
      );
      const all = JSON.stringify((await admin.get('/admin/audit?limit=200')).body);
      expect(all).not.toContain(KEY);
      expect(all).not.toContain(ROTATED);
      expect(JSON.stringify(audit.body)).not.toContain(ROTATED);
    });
  });
}
