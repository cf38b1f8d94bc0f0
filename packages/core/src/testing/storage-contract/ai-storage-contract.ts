import { describe, expect, it } from 'vitest';
import type {
  AiConnectionRecord,
  CatalogModelRecord,
  ConfiguredModelRecord,
  LogicalModelRecord,
} from '../../ai/index.js';
import { MarginError, SYSTEM_TENANT_ID } from '../../kernel/index.js';
import { client, LATER, NOW, type StorageGetter, tenant, uuid } from './fixtures.js';

function model(overrides: Partial<ConfiguredModelRecord> = {}): ConfiguredModelRecord {
  return {
    id: uuid(),
    remoteModelId: 'gpt-4.1',
    displayName: 'GPT-4.1',
    operationKinds: ['chat'],
    supportedProtocolModes: ['auto', 'responses', 'chatCompletions'],
    tokenizerName: null,
    maxInputTokens: null,
    embeddingDimensions: null,
    supportsStructuredOutput: true,
    supportsToolUse: false,
    maxContextTokens: 1_047_576,
    inputCostPer1MUsd: 2,
    outputCostPer1MUsd: 8,
    cachedInputCostPer1MUsd: 0.5,
    source: 'manual',
    lastSeenAt: null,
    ...overrides,
  };
}

function embeddingModel(): ConfiguredModelRecord {
  return model({
    remoteModelId: 'text-embedding-3-small',
    displayName: 'small',
    operationKinds: ['embedding'],
    supportedProtocolModes: ['auto', 'embeddings'],
    tokenizerName: 'cl100k_base',
    maxInputTokens: 8191,
    embeddingDimensions: 1536,
    supportsStructuredOutput: false,
    maxContextTokens: null,
    inputCostPer1MUsd: 0.02,
    outputCostPer1MUsd: null,
    cachedInputCostPer1MUsd: null,
    source: 'discovered',
    lastSeenAt: LATER,
  });
}

function connection(clientId: string, overrides: Partial<AiConnectionRecord> = {}): AiConnectionRecord {
  const chat = model();
  const embed = embeddingModel();
  return {
    id: uuid(),
    clientId,
    ownerTenantId: null,
    displayName: `Profile ${uuid()}`,
    providerKind: 'kindDirect',
    baseUrl: 'https://api.openai.com/v1',
    authMode: 'apiKey',
    sealedApiKey: 'v1:sealed',
    discoveryMode: 'providerCatalog',
    defaultHeaders: { 'x-team': 'reviews' },
    defaultQueryParams: {},
    configuredModels: [chat, embed],
    purposeBindings: [
      { purpose: 'reviewDefault', configuredModelId: chat.id, protocolMode: 'auto', isEnabled: true },
      { purpose: 'embeddingDefault', configuredModelId: embed.id, protocolMode: 'embeddings', isEnabled: true },
    ],
    isActive: false,
    revision: 1,
    verification: {
      status: 'neverVerified',
      failureCategory: null,
      summary: 'Not verified yet.',
      checkedAt: null,
      warnings: [],
    },
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

/** A tenant-owned profile: no client, the tenant as its owner. */
const tenantConnection = (tenantId: string, overrides: Partial<AiConnectionRecord> = {}) =>
  connection('', { clientId: null, ownerTenantId: tenantId, ...overrides });

function logical(
  ownerKind: 'client' | 'tenant',
  ownerId: string,
  c: AiConnectionRecord,
  overrides: Partial<LogicalModelRecord> = {},
): LogicalModelRecord {
  return {
    id: uuid(),
    ownerKind,
    ownerId,
    name: 'review-main',
    capability: 'chat',
    connectionId: c.id,
    configuredModelId: c.configuredModels[0]?.id ?? '',
    reasoningEffort: 'medium',
    protocolMode: 'auto',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

const codeOf = (e: unknown) => (MarginError.isInstance(e) ? e.code : e);

export function aiStorageContract(storage: StorageGetter): void {
  describe('AI connections', () => {
    it('stores a profile with its models and bindings, in order, and reads it back unchanged', async () => {
      const c = client();
      await storage().clients.insert(c);
      const profile = connection(c.id);
      await storage().aiConnections.insert(profile);
      expect(await storage().aiConnections.findById(profile.id)).toEqual(profile);
      expect(await storage().aiConnections.findById(uuid())).toBeUndefined();
    });

    it('keeps profile names unique per client ignoring case, and model ids unique per profile', async () => {
      const [a, b] = [client(), client()];
      await storage().clients.insert(a);
      await storage().clients.insert(b);
      await storage().aiConnections.insert(connection(a.id, { displayName: 'OpenAI' }));
      const dupName = await storage()
        .aiConnections.insert(connection(a.id, { displayName: 'OPENAI' }))
        .catch((e: unknown) => e);
      expect(codeOf(dupName)).toBe('conflict');
      await storage().aiConnections.insert(connection(b.id, { displayName: 'openai' }));
      const dupModel = await storage()
        .aiConnections.insert(
          connection(a.id, {
            configuredModels: [model({ remoteModelId: 'M' }), model({ remoteModelId: 'm' })],
            purposeBindings: [],
          }),
        )
        .catch((e: unknown) => e);
      expect(codeOf(dupModel)).toBe('conflict');
      expect((await storage().aiConnections.listByClient(a.id, { limit: 10 })).items).toHaveLength(1);
    });

    it('lists a client’s profiles oldest first, in pages, and no other client’s', async () => {
      const [a, b] = [client(), client()];
      await storage().clients.insert(a);
      await storage().clients.insert(b);
      const p1 = connection(a.id, { createdAt: '2026-01-01T00:00:01.000Z' });
      const p2 = connection(a.id, { createdAt: '2026-01-01T00:00:02.000Z' });
      const p3 = connection(a.id, { createdAt: '2026-01-01T00:00:03.000Z' });
      for (const p of [p3, p1, p2, connection(b.id)]) await storage().aiConnections.insert(p);
      const first = await storage().aiConnections.listByClient(a.id, { limit: 2 });
      expect(first.items).toEqual([p1, p2]);
      const second = await storage().aiConnections.listByClient(a.id, { limit: 2, cursor: first.nextCursor });
      expect(second).toEqual({ items: [p3], nextCursor: null });
    });

    it('stores tenant-owned profiles: names unique per tenant, listed by tenant in pages, never as a client’s', async () => {
      const [t, other] = [tenant(), tenant()];
      await storage().tenants.insert(t);
      await storage().tenants.insert(other);
      const c = client({ tenantId: t.id });
      await storage().clients.insert(c);
      const own = connection(c.id, { displayName: 'Shared', createdAt: '2026-01-01T00:00:05.000Z', isActive: true });
      await storage().aiConnections.insert(own);
      const p1 = tenantConnection(t.id, { displayName: 'Shared', createdAt: '2026-01-01T00:00:01.000Z' });
      const p2 = tenantConnection(t.id, { createdAt: '2026-01-01T00:00:02.000Z', isActive: true });
      const p3 = tenantConnection(t.id, { createdAt: '2026-01-01T00:00:03.000Z' });
      for (const p of [p3, p1, p2, tenantConnection(other.id, { displayName: 'shared' })]) {
        await storage().aiConnections.insert(p);
      }
      expect(await storage().aiConnections.findById(p1.id)).toEqual(p1);
      const dup = await storage()
        .aiConnections.insert(tenantConnection(t.id, { displayName: 'SHARED' }))
        .catch((e: unknown) => e);
      expect(codeOf(dup)).toBe('conflict');
      const renamed = await storage()
        .aiConnections.update({ ...p2, displayName: 'shared' })
        .catch((e: unknown) => e);
      expect(codeOf(renamed)).toBe('conflict');
      const first = await storage().aiConnections.listByTenant(t.id, { limit: 2 });
      expect(first.items).toEqual([p1, p2]);
      const second = await storage().aiConnections.listByTenant(t.id, { limit: 2, cursor: first.nextCursor });
      expect(second).toEqual({ items: [p3], nextCursor: null });
      expect((await storage().aiConnections.listByClient(c.id, { limit: 10 })).items).toEqual([own]);
      // A tenant's active profile binds no purpose of its clients: they reach it through the catalog only.
      expect(await storage().aiConnections.findActiveBinding(c.id, 'reviewDefault')).toEqual({
        connectionId: own.id,
        binding: own.purposeBindings[0],
      });
      expect(await storage().aiConnections.delete(p2.id)).toBe(true);
      expect((await storage().aiConnections.listByTenant(t.id, { limit: 10 })).items).toEqual([p1, p3]);
    });

    it('replaces models and bindings on update, keeping model ids, and can drop the key', async () => {
      const c = client();
      await storage().clients.insert(c);
      const profile = connection(c.id);
      await storage().aiConnections.insert(profile);
      const kept = profile.configuredModels[0] as ConfiguredModelRecord;
      const added = model({ remoteModelId: 'gpt-4o-mini', displayName: 'mini' });
      const next: AiConnectionRecord = {
        ...profile,
        displayName: 'Renamed',
        sealedApiKey: null,
        defaultQueryParams: { 'api-version': '2025-04-01-preview' },
        configuredModels: [added, { ...kept, maxContextTokens: 128_000 }],
        purposeBindings: [
          { purpose: 'reviewTriage', configuredModelId: added.id, protocolMode: 'chatCompletions', isEnabled: false },
        ],
        revision: 2,
        updatedAt: LATER,
      };
      await storage().aiConnections.update(next);
      expect(await storage().aiConnections.findById(profile.id)).toEqual(next);
    });

    it('rolls a profile update back with its transaction', async () => {
      const c = client();
      await storage().clients.insert(c);
      const profile = connection(c.id);
      await storage().aiConnections.insert(profile);
      await expect(
        storage().transaction(async (tx) => {
          await tx.aiConnections.update({
            ...profile,
            configuredModels: [model({ remoteModelId: 'other' })],
            purposeBindings: [],
          });
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await storage().aiConnections.findById(profile.id)).toEqual(profile);
    });

    it('records a verification only while the profile is at the expected revision', async () => {
      const c = client();
      await storage().clients.insert(c);
      const profile = connection(c.id, { revision: 3 });
      await storage().aiConnections.insert(profile);
      const verified = {
        status: 'verified' as const,
        failureCategory: null,
        summary: 'ok',
        checkedAt: LATER,
        warnings: ['w'],
      };
      expect(await storage().aiConnections.recordVerification(profile.id, 2, verified, LATER)).toBe(false);
      expect((await storage().aiConnections.findById(profile.id))?.verification.status).toBe('neverVerified');
      expect(await storage().aiConnections.recordVerification(profile.id, 3, verified, LATER)).toBe(true);
      expect(await storage().aiConnections.findById(profile.id)).toMatchObject({
        verification: verified,
        updatedAt: LATER,
      });
      const failed = {
        status: 'failed' as const,
        failureCategory: 'credentials' as const,
        summary: 'no',
        checkedAt: LATER,
        warnings: [],
      };
      await storage().aiConnections.recordVerification(profile.id, 3, failed, LATER);
      expect((await storage().aiConnections.findById(profile.id))?.verification).toEqual(failed);
      await storage().aiConnections.setActive(profile.id, true, LATER);
      expect((await storage().aiConnections.findById(profile.id))?.isActive).toBe(true);
    });

    it('finds the enabled binding of a purpose on the oldest active profile only', async () => {
      const c = client();
      await storage().clients.insert(c);
      const inactive = connection(c.id, { createdAt: '2026-01-01T00:00:01.000Z' });
      const older = connection(c.id, { createdAt: '2026-01-01T00:00:02.000Z', isActive: true });
      const newer = connection(c.id, { createdAt: '2026-01-01T00:00:03.000Z', isActive: true });
      const disabled = connection(c.id, { createdAt: '2026-01-01T00:00:00.000Z', isActive: true });
      disabled.purposeBindings = disabled.purposeBindings.map((b) => ({ ...b, isEnabled: false }));
      for (const p of [newer, inactive, older, disabled]) await storage().aiConnections.insert(p);
      expect(await storage().aiConnections.findActiveBinding(c.id, 'reviewDefault')).toEqual({
        connectionId: older.id,
        binding: older.purposeBindings[0],
      });
      expect(await storage().aiConnections.findActiveBinding(c.id, 'reviewTriage')).toBeUndefined();
      expect(await storage().aiConnections.findActiveBinding(uuid(), 'reviewDefault')).toBeUndefined();
    });

    it('deletes a profile with its models and bindings', async () => {
      const c = client();
      await storage().clients.insert(c);
      const profile = connection(c.id, { isActive: true });
      await storage().aiConnections.insert(profile);
      expect(await storage().aiConnections.delete(profile.id)).toBe(true);
      expect(await storage().aiConnections.delete(profile.id)).toBe(false);
      expect(await storage().aiConnections.findById(profile.id)).toBeUndefined();
      expect(await storage().aiConnections.findActiveBinding(c.id, 'reviewDefault')).toBeUndefined();
      // The same model ids can be stored again: nothing of the old profile is left.
      await storage().aiConnections.insert({ ...profile, id: uuid() });
    });
  });

  describe('logical models and purposes', () => {
    it('stores overrides and tenant entries by owner, names unique per owner ignoring case', async () => {
      const c = client();
      await storage().clients.insert(c);
      const profile = connection(c.id);
      await storage().aiConnections.insert(profile);
      const override = logical('client', c.id, profile, { name: 'Review-Main' });
      await storage().aiLogicalModels.insert(override);
      await storage().aiLogicalModels.insert(logical('client', c.id, profile, { name: 'alpha' }));
      const entry = logical('tenant', SYSTEM_TENANT_ID, profile, { name: 'review-main' });
      await storage().aiLogicalModels.insert(entry);
      const dup = await storage()
        .aiLogicalModels.insert(logical('client', c.id, profile, { name: 'REVIEW-MAIN' }))
        .catch((e: unknown) => e);
      expect(codeOf(dup)).toBe('conflict');
      expect(await storage().aiLogicalModels.find('client', c.id, 'review-MAIN')).toEqual(override);
      expect(await storage().aiLogicalModels.find('tenant', SYSTEM_TENANT_ID, 'Review-Main')).toEqual(entry);
      expect((await storage().aiLogicalModels.list('client', c.id)).map((m) => m.name)).toEqual([
        'alpha',
        'Review-Main',
      ]);
      expect((await storage().aiLogicalModels.listByConnection(profile.id)).map((m) => m.ownerKind).sort()).toEqual([
        'client',
        'client',
        'tenant',
      ]);
      const changed = {
        ...override,
        capability: 'embedding' as const,
        reasoningEffort: 'none' as const,
        updatedAt: LATER,
      };
      await storage().aiLogicalModels.update(changed);
      expect(await storage().aiLogicalModels.find('client', c.id, 'review-main')).toEqual(changed);
      expect(await storage().aiLogicalModels.delete('client', c.id, 'REVIEW-main')).toBe(true);
      expect(await storage().aiLogicalModels.delete('client', c.id, 'review-main')).toBe(false);
      expect(await storage().aiLogicalModels.find('tenant', SYSTEM_TENANT_ID, 'review-main')).toEqual(entry);
    });

    it('maps purposes per client, lists them in purpose order, and tells which depend on a tenant entry', async () => {
      const acme = tenant({ displayName: 'Acme' });
      await storage().tenants.insert(acme);
      const [c1, c2, c3] = [client({ tenantId: acme.id }), client({ tenantId: acme.id }), client()];
      for (const c of [c1, c2, c3]) await storage().clients.insert(c);
      const profile = connection(c1.id);
      await storage().aiConnections.insert(profile);
      await storage().aiLogicalModels.insert(logical('client', c2.id, profile, { name: 'Shared' }));
      const put = (clientId: string, purpose: 'reviewDefault' | 'reviewTriage' | 'embeddingDefault', name: string) =>
        storage().aiLogicalModels.putPurpose({ clientId, purpose, logicalModelName: name, updatedAt: NOW });
      await put(c1.id, 'reviewTriage', 'shared');
      await put(c1.id, 'reviewDefault', 'Shared');
      await put(c2.id, 'reviewDefault', 'shared');
      await put(c3.id, 'reviewDefault', 'shared');
      await put(c1.id, 'embeddingDefault', 'other');
      await put(c1.id, 'embeddingDefault', 'vectors');
      expect(await storage().aiLogicalModels.listPurposes(c1.id)).toEqual([
        { clientId: c1.id, purpose: 'reviewDefault', logicalModelName: 'Shared', updatedAt: NOW },
        { clientId: c1.id, purpose: 'reviewTriage', logicalModelName: 'shared', updatedAt: NOW },
        { clientId: c1.id, purpose: 'embeddingDefault', logicalModelName: 'vectors', updatedAt: NOW },
      ]);
      expect(await storage().aiLogicalModels.findPurpose(c1.id, 'reviewTriage')).toMatchObject({
        logicalModelName: 'shared',
      });
      // c2 shadows the name with its own override; c3 is in another tenant.
      expect(
        (await storage().aiLogicalModels.listTenantNameMappings(acme.id, 'SHARED')).map((m) => [m.clientId, m.purpose]),
      ).toEqual([
        [c1.id, 'reviewDefault'],
        [c1.id, 'reviewTriage'],
      ]);
      expect(await storage().aiLogicalModels.deletePurpose(c1.id, 'reviewTriage')).toBe(true);
      expect(await storage().aiLogicalModels.deletePurpose(c1.id, 'reviewTriage')).toBe(false);
      expect(await storage().aiLogicalModels.findPurpose(c1.id, 'reviewTriage')).toBeUndefined();
    });
  });

  describe('tenant model catalog', () => {
    const catalogModel = (tenantId: string, overrides: Partial<CatalogModelRecord> = {}): CatalogModelRecord => ({
      id: uuid(),
      tenantId,
      providerKind: 'kindCompatible',
      remoteModelId: 'qwen2.5-coder:32b',
      displayName: 'Qwen coder',
      operationKinds: ['chat'],
      tokenizerName: null,
      maxInputTokens: null,
      embeddingDimensions: null,
      supportsStructuredOutput: true,
      supportsToolUse: true,
      maxContextTokens: 32_768,
      inputCostPer1MUsd: 0,
      outputCostPer1MUsd: 0,
      cachedInputCostPer1MUsd: null,
      createdAt: NOW,
      ...overrides,
    });

    it('stores hand-defined models per tenant, unique per kind and model id ignoring case', async () => {
      const acme = tenant({ displayName: 'Acme' });
      await storage().tenants.insert(acme);
      const m = catalogModel(acme.id);
      const embed = catalogModel(acme.id, {
        providerKind: 'kindCloudB',
        remoteModelId: 'cohere.embed-v4',
        operationKinds: ['embedding'],
        tokenizerName: 'cohere',
        maxInputTokens: 512,
        embeddingDimensions: 1024,
      });
      await storage().aiModelCatalog.insertModel(m);
      await storage().aiModelCatalog.insertModel(embed);
      const dup = await storage()
        .aiModelCatalog.insertModel(catalogModel(acme.id, { remoteModelId: 'QWEN2.5-coder:32b' }))
        .catch((e: unknown) => e);
      expect(codeOf(dup)).toBe('conflict');
      await storage().aiModelCatalog.insertModel(catalogModel(acme.id, { providerKind: 'kindProxy' }));
      expect((await storage().aiModelCatalog.listModels(acme.id)).map((x) => x.providerKind)).toEqual([
        'kindCloudB',
        'kindCompatible',
        'kindProxy',
      ]);
      expect((await storage().aiModelCatalog.listModels(acme.id))[1]).toEqual(m);
      expect(await storage().aiModelCatalog.deleteModel(SYSTEM_TENANT_ID, m.id)).toBe(false);
      expect(await storage().aiModelCatalog.deleteModel(acme.id, m.id)).toBe(true);
      expect(await storage().aiModelCatalog.listModels(SYSTEM_TENANT_ID)).toEqual([]);
    });

    it('upserts price overrides by kind and model id, keeping the first id', async () => {
      const acme = tenant({ displayName: 'Acme' });
      await storage().tenants.insert(acme);
      const first = {
        id: uuid(),
        tenantId: acme.id,
        providerKind: 'kindDirect' as const,
        remoteModelId: 'gpt-4o',
        inputCostPer1MUsd: 2,
        outputCostPer1MUsd: null,
        cachedInputCostPer1MUsd: null,
        updatedAt: NOW,
      };
      expect(await storage().aiModelCatalog.putPriceOverride(first)).toEqual({ created: true, override: first });
      const again = { ...first, id: uuid(), remoteModelId: 'GPT-4o', outputCostPer1MUsd: 9.5, updatedAt: LATER };
      expect(await storage().aiModelCatalog.putPriceOverride(again)).toEqual({
        created: false,
        override: { ...again, id: first.id },
      });
      expect(await storage().aiModelCatalog.listPriceOverrides(acme.id)).toEqual([{ ...again, id: first.id }]);
      expect(await storage().aiModelCatalog.deletePriceOverride(SYSTEM_TENANT_ID, first.id)).toBe(false);
      expect(await storage().aiModelCatalog.deletePriceOverride(acme.id, first.id)).toBe(true);
      expect(await storage().aiModelCatalog.listPriceOverrides(acme.id)).toEqual([]);
    });
  });
}
