import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiProfile } from '../testing/ai-test-kit.js';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

/**
 * Spec §8: model catalog browsing, and attaching a catalog model to a client's connection, are
 * available in both editions — to a client's administrators, who hold no tenant role.
 */
describe('the model catalog for a client’s administrators (Community)', () => {
  let host: TestHost;
  let clientAdmin: TestApi;
  let clientUser: TestApi;
  let clientId: string;

  beforeAll(async () => {
    host = await startTestHost();
    const admin = await host.admin();
    clientId = (await admin.post('/clients', { displayName: 'Catalog client', tenantId: SYSTEM_TENANT_ID })).body.id;
    const owner = await host.createUser('catalog-client-admin');
    const reader = await host.createUser('catalog-client-user');
    await admin.put(`/clients/${clientId}/members/${owner.id}`, { role: 'ClientAdministrator' });
    await admin.put(`/clients/${clientId}/members/${reader.id}`, { role: 'ClientUser' });
    clientAdmin = owner.api;
    clientUser = reader.api;
  });
  afterAll(async () => {
    await host.close();
  });

  it('browses the catalog through the client, filtered by provider kind', async () => {
    const res = await clientAdmin.get(`/clients/${clientId}/model-catalog/models?providerKind=kindDirect`);
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeGreaterThan(3);
    expect(res.body.items.every((m: { providerKind: string }) => m.providerKind === 'kindDirect')).toBe(true);
    expect(res.body.items).toContainEqual(
      expect.objectContaining({
        id: 'builtin:kindDirect:gpt-4.1-mini',
        remoteModelId: 'gpt-4.1-mini',
        isBuiltIn: true,
      }),
    );
    // Administrators only: a ClientUser is refused, and the tenant's own path stays for tenant roles.
    expect((await clientUser.get(`/clients/${clientId}/model-catalog/models`)).status).toBe(403);
    expect((await clientAdmin.get(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/models`)).status).toBe(404);
  });

  it('attaches a catalog model to a connection of the client, with the catalog’s metadata and prices', async () => {
    const created = await clientAdmin.post(`/clients/${clientId}/ai-connections`, openAiProfile());
    expect(created.status).toBe(201);
    const path = `/clients/${clientId}/ai-connections/${created.body.id}/catalog-models`;
    const res = await clientAdmin.post(path, { catalogModelId: 'builtin:kindDirect:gpt-4.1-mini' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const attached = res.body.configuredModels.find(
      (m: { remoteModelId: string }) => m.remoteModelId === 'gpt-4.1-mini',
    );
    expect(attached).toMatchObject({
      id: expect.any(String),
      source: 'knownCatalog',
      displayName: 'GPT-4.1 mini',
      operationKinds: ['chat'],
      maxContextTokens: 1_047_576,
      inputCostPer1MUsd: 0.4,
      outputCostPer1MUsd: 1.6,
    });
    expect(res.body).toMatchObject({ isActive: false, verification: { status: 'neverVerified' } });

    const again = await clientAdmin.post(path, { catalogModelId: 'builtin:kindDirect:gpt-4.1-mini' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('conflict');
    const otherKind = await clientAdmin.post(path, {
      catalogModelId: 'builtin:kindAssistant:claude-3-5-haiku-20241022',
    });
    expect(otherKind.status).toBe(400);
    expect(otherKind.body.details).toEqual([
      { path: 'catalogModelId', message: 'names no catalog model of kindDirect, this connection’s provider kind' },
    ]);
    expect((await clientAdmin.post(path, {})).status).toBe(400);
    expect((await clientUser.post(path, { catalogModelId: 'builtin:kindDirect:gpt-4o' })).status).toBe(403);
  });
});
