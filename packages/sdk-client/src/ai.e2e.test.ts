import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarginClient } from './client.js';
import { ConflictError, ValidationError } from './errors.js';

describe('the SDK’s ai group against a real host', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('manages a profile, logical models, purposes and reads the catalog with typed answers', async () => {
    const sdk = createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    const client = await sdk.tenancy.createClient({ displayName: 'SDK AI', tenantId: SYSTEM_TENANT_ID });
    expect((await sdk.ai.listPermittedAiProviders(client.id)).providers).toHaveLength(7);
    // Saving calls nothing, so a public endpoint is fine without network access.
    const profile = await sdk.ai.createAiConnection(client.id, {
      displayName: 'OpenAI',
      providerKind: 'kindDirect',
      baseUrl: 'https://api.openai.com/v1',
      auth: { mode: 'apiKey', apiKey: 'sk-sdk-test-key' },
      configuredModels: [{ remoteModelId: 'gpt-4.1' }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' }],
    });
    expect(profile.auth).toEqual({ mode: 'apiKey', hasApiKey: true });
    expect(profile.verification.status).toBe('neverVerified');
    await expect(sdk.ai.activateAiConnection(client.id, profile.id)).rejects.toBeInstanceOf(ValidationError);
    const renamed = await sdk.ai.patchAiConnection(client.id, profile.id, { displayName: 'OpenAI (reviews)' });
    expect(renamed.displayName).toBe('OpenAI (reviews)');
    expect((await sdk.ai.listAiConnections(client.id)).items.map((c) => c.id)).toEqual([profile.id]);

    const model = profile.configuredModels[0];
    if (!model) throw new Error('no model');
    const logical = await sdk.ai.createClientLogicalModel(client.id, {
      name: 'main',
      capability: 'chat',
      connectionId: profile.id,
      configuredModelId: model.id,
      reasoningEffort: 'medium',
    });
    expect(logical.scope).toBe('client');
    await expect(
      sdk.ai.createClientLogicalModel(client.id, {
        name: 'MAIN',
        capability: 'chat',
        connectionId: profile.id,
        configuredModelId: model.id,
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await sdk.ai.putClientPurpose(client.id, 'reviewDefault', { logicalModelName: 'main' })).toEqual({
      purpose: 'reviewDefault',
      logicalModelName: 'main',
    });
    const listed = await sdk.ai.listClientLogicalModels(client.id);
    expect(listed.purposes.find((p) => p.purpose === 'reviewDefault')?.logicalModelName).toBe('main');
    await expect(sdk.ai.deleteAiConnection(client.id, profile.id)).rejects.toBeInstanceOf(ConflictError);
    await sdk.ai.deleteClientPurpose(client.id, 'reviewDefault');
    await sdk.ai.deleteClientLogicalModel(client.id, 'main');
    await sdk.ai.deleteAiConnection(client.id, profile.id);

    const catalog = await sdk.ai.listCatalogModels(SYSTEM_TENANT_ID, { providerKind: 'kindDirect' });
    expect(catalog.items.some((m) => m.remoteModelId === 'gpt-4.1' && m.isBuiltIn)).toBe(true);
    expect((await sdk.ai.listCatalogProviders(SYSTEM_TENANT_ID)).items).toHaveLength(7);
    await expect(
      sdk.ai.putPriceOverride(SYSTEM_TENANT_ID, {
        providerKind: 'kindDirect',
        remoteModelId: 'gpt-4.1',
        inputCostPer1MUsd: 1,
      }),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});
