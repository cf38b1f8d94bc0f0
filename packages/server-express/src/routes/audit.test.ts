import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { openKnexStorage } from '@margin/storage-knex';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiProfile } from '../testing/ai-test-kit.js';
import { type ApiResponse, startTestHost, TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { scopedClient } from '../testing/triggers-test-support.js';

const CANARIES = {
  scmSecret: 'glpat-canary-audit-scm-3c81f0a2',
  scmRotated: 'glpat-canary-audit-rotated-9d4e27b1',
  aiKey: 'sk-canary-audit-ai-key-50e1c7aa',
  aiRotated: 'sk-canary-audit-ai-rotated-b2f9',
  userPassword: 'canary-audit-user-password-7e3d',
};

/** Keeps every answer, so the test can search them all for the secrets afterwards. */
class RecordingApi extends TestApi {
  constructor(
    baseUrl: string,
    readonly seen: ApiResponse[],
    credentials = {},
  ) {
    super(baseUrl, credentials);
  }
  override with(credentials: object): RecordingApi {
    return new RecordingApi(this.baseUrl, this.seen, credentials);
  }
  override async request(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    const res = await super.request(method, path, body, headers);
    this.seen.push(res);
    return res;
  }
}

type Entry = { action: string; tenantId: string | null; clientId: string | null; summary: string; at: string };

for (const dialect of testDialects()) {
  describe(`the audit trail (${dialect})`, () => {
    let host: TestHost;
    let admin: RecordingApi;
    const seen: ApiResponse[] = [];
    const ids = { client: '', user: '', tenantAdmin: '', scm: '', ai: '', adminUser: '' };

    /** Every page of a listing, following `nextCursor`. */
    const allPages = async (api: TestApi, path: string, limit: number): Promise<Entry[]> => {
      const items: Entry[] = [];
      let cursor: string | null = null;
      do {
        const res = await api.get(`${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        items.push(...res.body.items);
        cursor = res.body.nextCursor;
      } while (cursor);
      return items;
    };

    beforeAll(async () => {
      host = await startTestHost({ dialect, env: { LOG_LEVEL: 'trace' } });
      admin = new RecordingApi(`${host.url}/api`, seen, (await host.admin()).credentials);
      ids.adminUser = (await admin.get('/auth/me')).body.userId;
      ids.user = (await host.createUser('audited')).id;
      ids.tenantAdmin = (await host.createUser('tenant-admin')).id;
      const ok = (res: ApiResponse, status: number) => {
        expect(res.status, JSON.stringify(res.body)).toBe(status);
        return res.body;
      };
      ok(
        await admin.put(`/admin/tenants/${SYSTEM_TENANT_ID}/members/${ids.tenantAdmin}`, {
          role: 'TenantAdministrator',
        }),
        200,
      );
      ids.client = ok(await admin.post('/clients', { displayName: 'Audited', tenantId: SYSTEM_TENANT_ID }), 201).id;
      ok(await admin.patch(`/clients/${ids.client}`, { displayName: 'Audited, renamed' }), 200);
      ok(await admin.put(`/clients/${ids.client}/members/${ids.user}`, { role: 'ClientUser' }), 200);
      ok(await admin.delete(`/clients/${ids.client}/members/${ids.user}`), 204);

      const scm = `/clients/${ids.client}/provider-connections`;
      ids.scm = ok(
        await admin.post(scm, {
          providerFamily: 'gitHostB',
          authenticationKind: 'personalAccessToken',
          hostBaseUrl: 'https://gitlab.audit.test',
          secret: CANARIES.scmSecret,
        }),
        201,
      ).id;
      ok(await admin.patch(`${scm}/${ids.scm}`, { secret: CANARIES.scmRotated, displayName: 'Rotated' }), 200);
      ok(await admin.delete(`${scm}/${ids.scm}`), 204);

      const ai = `/clients/${ids.client}/ai-connections`;
      ids.ai = ok(await admin.post(ai, openAiProfile({ auth: { mode: 'apiKey', apiKey: CANARIES.aiKey } })), 201).id;
      ok(await admin.patch(`${ai}/${ids.ai}`, { auth: { mode: 'apiKey', apiKey: CANARIES.aiRotated } }), 200);
      ok(await admin.delete(`${ai}/${ids.ai}`), 204);
      ok(await admin.patch('/admin/licensing', { edition: 'Community' }), 200);
      ok(await admin.patch(`/admin/users/${ids.user}`, { password: CANARIES.userPassword }), 200);
    });
    afterAll(async () => {
      await host?.close();
    });

    const TENANT_ACTIONS = [
      'aiConnection.deleted',
      'aiConnection.updated',
      'aiConnection.created',
      'scmConnection.deleted',
      'scmConnection.updated',
      'scmConnection.created',
      'clientMember.removed',
      'clientMember.put',
      'client.updated',
      'client.created',
      'tenantMember.put',
    ];

    it('records every change, newest first, with who did it and where, across pages', async () => {
      const all = await allPages(admin, '/admin/audit', 3);
      expect(all.map((e) => e.action)).toEqual([
        'user.updated',
        'licensing.updated',
        ...TENANT_ACTIONS,
        'user.created',
        'user.created',
      ]);
      expect(all.every((e) => (e as unknown as { actorUserId: string }).actorUserId === ids.adminUser)).toBe(true);
      expect(all[0]).toMatchObject({
        tenantId: null,
        resourceId: ids.user,
        summary: "changed password of user 'audited'",
      });
      expect(all[1]).toMatchObject({ tenantId: null, clientId: null, resourceType: 'licensing' });
      expect(all.find((e) => e.action === 'scmConnection.updated')).toMatchObject({
        tenantId: SYSTEM_TENANT_ID,
        clientId: ids.client,
        resourceType: 'scmConnection',
        resourceId: ids.scm,
        summary: 'changed displayName, secret',
      });
      const times = all.map((e) => e.at);
      expect([...times].sort().reverse()).toEqual(times);
    });

    it('shows a tenant administrator the tenant’s changes only, and nobody else', async () => {
      const tenantAdmin = await host.login('tenant-admin', 'user-password-for-tests');
      const trail = await allPages(tenantAdmin, `/admin/tenants/${SYSTEM_TENANT_ID}/audit`, 4);
      expect(trail.map((e) => e.action)).toEqual(TENANT_ACTIONS);
      expect((await tenantAdmin.get('/admin/audit')).status).toBe(403);
      const user = await host.login('audited', CANARIES.userPassword);
      expect((await user.get(`/admin/tenants/${SYSTEM_TENANT_ID}/audit`)).body).toMatchObject({ code: 'not_found' });
    });

    it('refuses a malformed page request with 400, not 500', async () => {
      const res = await admin.get('/admin/audit?limit=0');
      expect(res.status).toBe(400);
      expect((await admin.get('/admin/audit?cursor=not-a-cursor')).body).toMatchObject({ code: 'validation_failed' });
    });

    it('never holds a secret: not in a stored row, a response or a log line', async () => {
      await allPages(admin, '/admin/audit', 2);
      const storage = await openKnexStorage({ url: host.databaseUrl, migrate: false });
      try {
        const rows = await storage.knex('audit_entries').select();
        expect(rows.length).toBe(TENANT_ACTIONS.length + 4);
        const texts = {
          rows: JSON.stringify(rows),
          responses: JSON.stringify(seen.map((r) => r.body)),
          logs: host.rawLogs(),
        };
        for (const [where, text] of Object.entries(texts)) {
          for (const canary of Object.values(CANARIES))
            expect(text.includes(canary), `${canary} in ${where}`).toBe(false);
        }
      } finally {
        await storage.close();
      }
    });
  });
}

describe('the audit trail of webhook configurations', () => {
  let fakes: ScmFakes;
  let host: TestHost;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({ providers: fakes.providers, env: { WORKER_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  it('records their creation, change and deletion under the client’s tenant, never their secret', async () => {
    const admin = await host.admin();
    const scoped = await scopedClient(admin, fakes, 'github', 'Webhook audit');
    const created = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: 'gitHostA',
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, generatedSecret } = created.body as { id: string; generatedSecret: string };
    expect((await admin.patch(`/admin/webhook-configurations/${id}`, { isActive: false })).status).toBe(200);
    expect((await admin.delete(`/admin/webhook-configurations/${id}`)).status).toBe(204);

    const trail = await admin.get(`/admin/tenants/${SYSTEM_TENANT_ID}/audit?limit=5`);
    expect(trail.body.items).toMatchObject([
      { action: 'webhookConfiguration.deleted', clientId: scoped.clientId, resourceId: id },
      { action: 'webhookConfiguration.updated', summary: 'changed isActive', tenantId: SYSTEM_TENANT_ID },
      { action: 'webhookConfiguration.created', resourceType: 'webhookConfiguration' },
      { action: 'scmConnection.scopeCreated', resourceId: scoped.connectionId },
      { action: 'scmConnection.created', resourceId: scoped.connectionId },
    ]);
    const rows = await host.storage.knex('audit_entries').select();
    expect(JSON.stringify(rows)).not.toContain(generatedSecret);
  });

  it('records a tenant’s catalog changes under that tenant (Commercial)', async () => {
    const admin = await host.admin();
    expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    const tenantId = (await admin.post('/admin/tenants', { displayName: 'Acme' })).body.id as string;
    const catalog = `/tenants/${tenantId}/model-catalog`;
    const model = await admin.post(`${catalog}/models`, { providerKind: 'kindCompatible', remoteModelId: 'acme-chat' });
    expect(model.status, JSON.stringify(model.body)).toBe(201);
    const price = await admin.post(`${catalog}/overrides`, {
      providerKind: 'kindCompatible',
      remoteModelId: 'acme-chat',
      inputCostPer1MUsd: 1,
    });
    expect(price.status, JSON.stringify(price.body)).toBe(201);
    expect((await admin.delete(`${catalog}/overrides/${price.body.id}`)).status).toBe(204);
    expect((await admin.delete(`${catalog}/models/${model.body.id}`)).status).toBe(204);

    const trail = await admin.get(`/admin/tenants/${tenantId}/audit`);
    expect(trail.body.items.map((e: { action: string }) => e.action)).toEqual([
      'tenantModelCatalog.modelDeleted',
      'tenantModelCatalog.priceRemoved',
      'tenantModelCatalog.priceSet',
      'tenantModelCatalog.modelCreated',
      'tenant.created',
    ]);
    expect(trail.body.items[3]).toMatchObject({
      tenantId,
      summary: "added kindCompatible model 'acme-chat' to the catalog",
    });
  });
});
