import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  CHAT_MODEL,
  compatibleProfile,
  EMBEDDING_MODEL,
  type FakeOpenAi,
  startFakeOpenAi,
} from '../testing/ai-test-kit.js';
import {
  checkMatrixRow,
  clientAdmins,
  clientUsers,
  everyone,
  type MatrixRow,
  type Persona,
  platformAdminOnly,
  setUpPersonas,
  startTestHost,
  type TestApi,
  type TestHost,
  tenantAdmins,
} from '../testing/index.js';

interface Setup {
  host: TestHost;
  fake: FakeOpenAi;
  api: Record<Persona, TestApi>;
  clientA: string;
}

/** Client A with a ClientUser and a ClientAdministrator, client B with its own administrator, a tenant administrator. */
async function setUp(tenant: 'system' | 'commercial'): Promise<Setup & { tenantId: string }> {
  const fake = await startFakeOpenAi();
  const host = await startTestHost({ env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } });
  let tenantId: string | undefined;
  if (tenant === 'commercial') {
    const admin = await host.admin();
    await admin.patch('/admin/licensing', { edition: 'Commercial' });
    tenantId = (await admin.post('/admin/tenants', { displayName: 'Acme' })).body.id;
  }
  // In a Commercial tenant the client personas are also tenant users, so they may read (not write) its catalog.
  const personas = await setUpPersonas(host, { tenantId, tenantUsers: tenant === 'commercial' });
  return { host, fake, api: personas.api, clientA: personas.clientA, tenantId: personas.tenantId };
}

describe('authorization matrix: AI connections, logical models and the tenant catalog (Community, System tenant)', () => {
  let s: Setup & { tenantId: string };
  let connection: { id: string; chat: string; embed: string };
  let n = 0;
  const conn = () => `/clients/${s.clientA}/ai-connections`;
  const lm = () => `/clients/${s.clientA}/logical-models`;
  const sys = `/tenants/${SYSTEM_TENANT_ID}`;
  const unsaved = () => ({
    providerKind: 'kindCompatible',
    baseUrl: s.fake.apiRoot,
    auth: { mode: 'apiKey', apiKey: 'sk-m' },
  });
  const admin = () => s.api.platformAdmin;
  const makeConnection = async () => {
    const res = await admin().post(
      conn(),
      compatibleProfile(s.fake.apiRoot, 'sk-matrix', { displayName: `Matrix ${++n}` }),
    );
    const models = res.body.configuredModels as Array<{ id: string; remoteModelId: string }>;
    return {
      id: res.body.id as string,
      chat: models.find((m) => m.remoteModelId === CHAT_MODEL)?.id ?? '',
      embed: models.find((m) => m.remoteModelId === EMBEDDING_MODEL)?.id ?? '',
    };
  };
  const override = (name: string) => ({
    name,
    capability: 'chat',
    connectionId: connection.id,
    configuredModelId: connection.chat,
  });
  let disposable = '';

  beforeAll(async () => {
    s = await setUp('system');
    connection = await makeConnection();
    await admin().post(`${lm()}/overrides`, override('main'));
  });
  afterAll(async () => {
    await s.host.close();
    await s.fake.close();
  });

  const rows: MatrixRow[] = [
    {
      name: 'permitted providers',
      method: 'GET',
      path: () => `${conn()}/permitted-providers`,
      expected: clientAdmins(200),
    },
    { name: 'probe', method: 'POST', path: () => `${conn()}/probe`, body: unsaved, expected: clientAdmins(200) },
    {
      name: 'discover models',
      method: 'POST',
      path: () => `${conn()}/discover-models`,
      body: unsaved,
      expected: clientAdmins(200),
    },
    {
      name: 'create a profile',
      method: 'POST',
      path: conn,
      body: () => compatibleProfile(s.fake.apiRoot, 'sk-matrix', { displayName: `Created ${++n}` }),
      expected: clientAdmins(201),
    },
    { name: 'list profiles', method: 'GET', path: conn, expected: clientAdmins(200) },
    { name: 'read a profile', method: 'GET', path: () => `${conn()}/${connection.id}`, expected: clientAdmins(200) },
    {
      name: 'change a profile',
      method: 'PATCH',
      path: () => `${conn()}/${connection.id}`,
      body: () => ({ displayName: 'Matrix main' }),
      expected: clientAdmins(200),
    },
    {
      name: 'delete a profile',
      method: 'DELETE',
      path: () => `${conn()}/${disposable}`,
      prepare: async () => {
        disposable = (await makeConnection()).id;
      },
      expected: clientAdmins(204),
    },
    {
      name: 'verify a profile',
      method: 'POST',
      path: () => `${conn()}/${connection.id}/verify`,
      expected: clientAdmins(200),
    },
    {
      name: 'activate a profile',
      method: 'POST',
      path: () => `${conn()}/${connection.id}/activate`,
      prepare: async () => {
        await admin().post(`${conn()}/${connection.id}/verify`);
      },
      expected: clientAdmins(200),
    },
    {
      name: 'deactivate a profile',
      method: 'POST',
      path: () => `${conn()}/${connection.id}/deactivate`,
      expected: clientAdmins(200),
    },
    { name: 'list logical models', method: 'GET', path: lm, expected: clientUsers(200) },
    {
      name: 'create an override',
      method: 'POST',
      path: () => `${lm()}/overrides`,
      body: () => override(`made-${++n}`),
      expected: clientAdmins(201),
    },
    { name: 'read an override', method: 'GET', path: () => `${lm()}/overrides/main`, expected: clientUsers(200) },
    {
      name: 'repoint an override',
      method: 'PUT',
      path: () => `${lm()}/overrides/main`,
      body: () => override('main'),
      expected: clientAdmins(204),
    },
    {
      name: 'delete an override',
      method: 'DELETE',
      path: () => `${lm()}/overrides/doomed`,
      prepare: async () => {
        await admin().post(`${lm()}/overrides`, override('doomed'));
      },
      expected: clientAdmins(204),
    },
    {
      name: 'map a purpose',
      method: 'PUT',
      path: () => `${lm()}/purposes/reviewTriage`,
      body: () => ({ logicalModelName: 'main' }),
      expected: clientAdmins(200),
    },
    {
      name: 'unmap a purpose',
      method: 'DELETE',
      path: () => `${lm()}/purposes/reviewTriage`,
      prepare: async () => {
        await admin().put(`${lm()}/purposes/reviewTriage`, { logicalModelName: 'main' });
      },
      expected: clientAdmins(204),
    },
    {
      name: 'list tenant logical models',
      method: 'GET',
      path: () => `${sys}/logical-models`,
      expected: tenantAdmins(200),
    },
    {
      name: 'create a tenant logical model (System: 400)',
      method: 'POST',
      path: () => `${sys}/logical-models`,
      body: () => override('tenant-entry'),
      expected: tenantAdmins(400),
    },
    {
      name: 'repoint a tenant logical model (System: 400)',
      method: 'PUT',
      path: () => `${sys}/logical-models/tenant-entry`,
      body: () => override('tenant-entry'),
      expected: tenantAdmins(400),
    },
    {
      name: 'delete a tenant logical model (System: 400)',
      method: 'DELETE',
      path: () => `${sys}/logical-models/tenant-entry`,
      expected: tenantAdmins(400),
    },
    {
      name: 'browse catalog models',
      method: 'GET',
      path: () => `${sys}/model-catalog/models`,
      expected: tenantAdmins(200),
    },
    {
      name: 'define a catalog model (System: 400)',
      method: 'POST',
      path: () => `${sys}/model-catalog/models`,
      body: () => ({ providerKind: 'kindCompatible', remoteModelId: 'm' }),
      expected: tenantAdmins(400),
    },
    {
      name: 'delete a catalog model (System: 400)',
      method: 'DELETE',
      path: () => `${sys}/model-catalog/models/x`,
      expected: tenantAdmins(400),
    },
    {
      name: 'catalog providers',
      method: 'GET',
      path: () => `${sys}/model-catalog/providers`,
      expected: tenantAdmins(200),
    },
    {
      name: 'list price overrides',
      method: 'GET',
      path: () => `${sys}/model-catalog/overrides`,
      expected: tenantAdmins(200),
    },
    {
      name: 'set a price override (System: 400)',
      method: 'POST',
      path: () => `${sys}/model-catalog/overrides`,
      body: () => ({ providerKind: 'kindDirect', remoteModelId: 'gpt-4o', inputCostPer1MUsd: 1 }),
      expected: tenantAdmins(400),
    },
    {
      name: 'delete a price override (System: 400)',
      method: 'DELETE',
      path: () => `${sys}/model-catalog/overrides/x`,
      expected: tenantAdmins(400),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(s.api, row);
  });
});

describe('authorization matrix: tenant catalog writes (Commercial, a tenant of its own)', () => {
  let s: Setup & { tenantId: string };
  let connection: { id: string; chat: string };
  let n = 0;
  const entry = (name: string) => ({
    name,
    capability: 'chat',
    connectionId: connection.id,
    configuredModelId: connection.chat,
  });
  const admin = () => s.api.platformAdmin;
  const t = () => `/tenants/${s.tenantId}`;
  let modelId = '';
  let overrideId = '';
  const tc = () => `${t()}/ai-connections`;
  let tenantConn = '';
  let doomedConn = '';
  let attachConn = '';
  let catalogModelId = '';

  beforeAll(async () => {
    s = await setUp('commercial');
    const res = await admin().post(`/clients/${s.clientA}/ai-connections`, compatibleProfile(s.fake.apiRoot, 'sk-t'));
    connection = {
      id: res.body.id,
      chat: res.body.configuredModels.find((m: { remoteModelId: string }) => m.remoteModelId === CHAT_MODEL).id,
    };
    await admin().post(`${t()}/logical-models`, entry('shared'));
    tenantConn = (await admin().post(tc(), compatibleProfile(s.fake.apiRoot, 'sk-tc', { displayName: 'Tenant' }))).body
      .id;
    catalogModelId = (
      await admin().post(`${t()}/model-catalog/models`, {
        providerKind: 'kindCompatible',
        remoteModelId: 'matrix-extra',
      })
    ).body.id;
  });
  afterAll(async () => {
    await s.host.close();
    await s.fake.close();
  });

  // Tenant users may read the catalog; only its administrators (and the platform admin) write.
  const readers = (ok: number) => ({ ...everyone(ok) });
  const writers = (ok: number) => ({ ...everyone(403), anonymous: 401, tenantAdmin: ok, platformAdmin: ok });

  const rows: MatrixRow[] = [
    { name: 'list tenant logical models', method: 'GET', path: () => `${t()}/logical-models`, expected: readers(200) },
    {
      name: 'create a tenant logical model',
      method: 'POST',
      path: () => `${t()}/logical-models`,
      body: () => entry(`entry-${++n}`),
      expected: writers(201),
    },
    {
      name: 'repoint a tenant logical model',
      method: 'PUT',
      path: () => `${t()}/logical-models/shared`,
      body: () => entry('shared'),
      expected: writers(204),
    },
    {
      name: 'delete a tenant logical model',
      method: 'DELETE',
      path: () => `${t()}/logical-models/doomed`,
      prepare: async () => {
        await admin().post(`${t()}/logical-models`, entry('doomed'));
      },
      expected: writers(204),
    },
    { name: 'browse catalog models', method: 'GET', path: () => `${t()}/model-catalog/models`, expected: readers(200) },
    {
      name: 'define a catalog model',
      method: 'POST',
      path: () => `${t()}/model-catalog/models`,
      body: () => ({ providerKind: 'kindCompatible', remoteModelId: `model-${++n}` }),
      expected: writers(201),
    },
    {
      name: 'delete a catalog model',
      method: 'DELETE',
      path: () => `${t()}/model-catalog/models/${modelId}`,
      prepare: async () => {
        modelId = (
          await admin().post(`${t()}/model-catalog/models`, { providerKind: 'kindProxy', remoteModelId: `gone-${++n}` })
        ).body.id;
      },
      expected: writers(204),
    },
    { name: 'catalog providers', method: 'GET', path: () => `${t()}/model-catalog/providers`, expected: readers(200) },
    {
      name: 'list price overrides',
      method: 'GET',
      path: () => `${t()}/model-catalog/overrides`,
      expected: readers(200),
    },
    {
      name: 'set a price override',
      method: 'POST',
      path: () => `${t()}/model-catalog/overrides`,
      prepare: async () => {
        const existing = (await admin().get(`${t()}/model-catalog/overrides`)).body.items;
        for (const o of existing) await admin().delete(`${t()}/model-catalog/overrides/${o.id}`);
      },
      body: () => ({ providerKind: 'kindDirect', remoteModelId: 'gpt-4o', inputCostPer1MUsd: 1 }),
      expected: writers(201),
    },
    {
      name: 'delete a price override',
      method: 'DELETE',
      path: () => `${t()}/model-catalog/overrides/${overrideId}`,
      prepare: async () => {
        overrideId = (
          await admin().post(`${t()}/model-catalog/overrides`, {
            providerKind: 'kindDirect',
            remoteModelId: 'gpt-4.1',
            inputCostPer1MUsd: 1,
          })
        ).body.id;
      },
      expected: writers(204),
    },
    // The tenant's own AI connections: its administrators and the platform administrator, read and write.
    { name: 'list tenant AI connections', method: 'GET', path: () => tc(), expected: writers(200) },
    {
      name: 'create a tenant AI connection',
      method: 'POST',
      path: () => tc(),
      body: () => compatibleProfile(s.fake.apiRoot, 'sk-tc', { displayName: `Tenant ${++n}` }),
      expected: writers(201),
    },
    { name: 'read a tenant AI connection', method: 'GET', path: () => `${tc()}/${tenantConn}`, expected: writers(200) },
    {
      name: 'change a tenant AI connection',
      method: 'PATCH',
      path: () => `${tc()}/${tenantConn}`,
      body: () => ({ displayName: `Renamed ${++n}` }),
      expected: writers(200),
    },
    {
      name: 'delete a tenant AI connection',
      method: 'DELETE',
      path: () => `${tc()}/${doomedConn}`,
      prepare: async () => {
        doomedConn = (
          await admin().post(tc(), compatibleProfile(s.fake.apiRoot, 'sk-tc', { displayName: `Doomed ${++n}` }))
        ).body.id;
      },
      expected: writers(204),
    },
    {
      name: 'attach a catalog model to a tenant AI connection',
      method: 'POST',
      path: () => `${tc()}/${attachConn}/catalog-models`,
      prepare: async () => {
        attachConn = (
          await admin().post(tc(), compatibleProfile(s.fake.apiRoot, 'sk-tc', { displayName: `Attach ${++n}` }))
        ).body.id;
      },
      body: () => ({ catalogModelId }),
      expected: writers(200),
    },
    {
      name: 'verify a tenant AI connection',
      method: 'POST',
      path: () => `${tc()}/${tenantConn}/verify`,
      expected: writers(200),
    },
    {
      name: 'activate a tenant AI connection',
      method: 'POST',
      path: () => `${tc()}/${tenantConn}/activate`,
      prepare: async () => {
        await admin().post(`${tc()}/${tenantConn}/verify`);
      },
      expected: writers(200),
    },
    {
      name: 'deactivate a tenant AI connection',
      method: 'POST',
      path: () => `${tc()}/${tenantConn}/deactivate`,
      expected: writers(200),
    },
    {
      name: 'tenant permitted providers',
      method: 'GET',
      path: () => `${tc()}/permitted-providers`,
      expected: writers(200),
    },
    {
      name: 'probe an unsaved tenant connection',
      method: 'POST',
      path: () => `${tc()}/probe`,
      body: () => ({
        providerKind: 'kindCompatible',
        baseUrl: s.fake.apiRoot,
        auth: { mode: 'apiKey', apiKey: 'sk-p' },
      }),
      expected: writers(200),
    },
    {
      name: 'discover models for a tenant connection',
      method: 'POST',
      path: () => `${tc()}/discover-models`,
      body: () => ({
        providerKind: 'kindCompatible',
        baseUrl: s.fake.apiRoot,
        auth: { mode: 'apiKey', apiKey: 'sk-p' },
      }),
      expected: writers(200),
    },
    // Tenant administrators read the AI policy; only the platform administrator sets it.
    {
      name: 'read the tenant AI policy',
      method: 'GET',
      path: () => `/admin/tenants/${s.tenantId}/ai-policy`,
      expected: { ...everyone(403), anonymous: 401, tenantAdmin: 200, platformAdmin: 200 },
    },
    {
      name: 'set the tenant AI policy',
      method: 'PUT',
      path: () => `/admin/tenants/${s.tenantId}/ai-policy`,
      body: () => ({ permittedProviderKinds: null, permittedHosts: null }),
      expected: platformAdminOnly(200),
    },
  ];

  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    await checkMatrixRow(s.api, row);
  });
});
