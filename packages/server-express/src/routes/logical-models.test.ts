import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_MODEL,
  compatibleProfile,
  EMBEDDING_MODEL,
  type FakeOpenAi,
  startFakeOpenAi,
} from '../testing/ai-test-kit.js';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

interface Connection {
  id: string;
  configuredModels: Array<{ id: string; remoteModelId: string }>;
}

describe('logical models, purposes and the tenant catalog', () => {
  let fake: FakeOpenAi;
  let host: TestHost;
  let admin: TestApi;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    host = await startTestHost({ env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } });
    admin = await host.admin();
  });
  afterAll(async () => {
    await host.close();
    await fake.close();
  });

  const newClient = async (name: string, tenantId = SYSTEM_TENANT_ID) => {
    const res = await admin.post('/clients', { displayName: name, tenantId });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /** A verified, active profile with a chat and an embedding model. */
  const activeConnection = async (clientId: string, name = 'Local') => {
    const created = await admin.post(
      `/clients/${clientId}/ai-connections`,
      compatibleProfile(fake.apiRoot, 'sk-logical-models', { displayName: name }),
    );
    expect(created.status).toBe(201);
    const c = created.body as Connection;
    expect((await admin.post(`/clients/${clientId}/ai-connections/${c.id}/verify`)).body.status).toBe('verified');
    expect((await admin.post(`/clients/${clientId}/ai-connections/${c.id}/activate`)).status).toBe(200);
    return c;
  };
  const chatOf = (c: Connection) => c.configuredModels.find((m) => m.remoteModelId === CHAT_MODEL)?.id as string;
  const embedOf = (c: Connection) => c.configuredModels.find((m) => m.remoteModelId === EMBEDDING_MODEL)?.id as string;

  describe('client overrides', () => {
    let clientId: string;
    let connection: Connection;
    const overrides = () => `/clients/${clientId}/logical-models/overrides`;
    beforeAll(async () => {
      clientId = await newClient('Overrides');
      connection = await activeConnection(clientId);
    });

    it('creates an override (201) and reads it back', async () => {
      const res = await admin.post(overrides(), {
        name: 'review-main',
        capability: 'chat',
        connectionId: connection.id,
        configuredModelId: chatOf(connection),
        reasoningEffort: 'medium',
        protocolMode: 'auto',
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        name: 'review-main',
        capability: 'chat',
        connectionId: connection.id,
        configuredModelId: chatOf(connection),
        reasoningEffort: 'medium',
        protocolMode: 'auto',
        scope: 'client',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect((await admin.get(`${overrides()}/REVIEW-MAIN`)).body).toEqual(res.body);
      expect((await admin.get(`${overrides()}/missing`)).status).toBe(404);
    });

    it('refuses a duplicate name in any case (409)', async () => {
      const res = await admin.post(overrides(), {
        name: 'Review-Main',
        capability: 'chat',
        connectionId: connection.id,
        configuredModelId: chatOf(connection),
      });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('conflict');
    });

    it.each<[string, (c: Connection, other: Connection) => Record<string, unknown>, string]>([
      [
        'a blank name',
        (c) => ({ name: ' ', capability: 'chat', connectionId: c.id, configuredModelId: chatOf(c) }),
        'name',
      ],
      [
        'a name with a slash',
        (c) => ({ name: 'a/b', capability: 'chat', connectionId: c.id, configuredModelId: chatOf(c) }),
        'name',
      ],
      [
        'an unknown capability',
        (c) => ({ name: 'x', capability: 'vision', connectionId: c.id, configuredModelId: chatOf(c) }),
        'capability',
      ],
      [
        'a connection of another client',
        (_c, other) => ({ name: 'x', capability: 'chat', connectionId: other.id, configuredModelId: chatOf(other) }),
        'connectionId',
      ],
      [
        'a model not on that connection',
        (c, other) => ({ name: 'x', capability: 'chat', connectionId: c.id, configuredModelId: chatOf(other) }),
        'configuredModelId',
      ],
      [
        'the wrong capability (embedding on a chat model)',
        (c) => ({ name: 'x', capability: 'embedding', connectionId: c.id, configuredModelId: chatOf(c) }),
        'capability',
      ],
      [
        'the wrong capability (chat on an embedding model)',
        (c) => ({ name: 'x', capability: 'chat', connectionId: c.id, configuredModelId: embedOf(c) }),
        'capability',
      ],
      [
        'a protocol mode the kind does not permit',
        (c) => ({
          name: 'x',
          capability: 'chat',
          connectionId: c.id,
          configuredModelId: chatOf(c),
          protocolMode: 'responses',
        }),
        'protocolMode',
      ],
      [
        'a chat model over the embeddings protocol',
        (c) => ({
          name: 'x',
          capability: 'chat',
          connectionId: c.id,
          configuredModelId: chatOf(c),
          protocolMode: 'embeddings',
        }),
        'protocolMode',
      ],
      [
        'a reasoning effort on an embedding model',
        (c) => ({
          name: 'x',
          capability: 'embedding',
          connectionId: c.id,
          configuredModelId: embedOf(c),
          reasoningEffort: 'high',
        }),
        'reasoningEffort',
      ],
      [
        'an unknown reasoning effort',
        (c) => ({
          name: 'x',
          capability: 'chat',
          connectionId: c.id,
          configuredModelId: chatOf(c),
          reasoningEffort: 'max',
        }),
        'reasoningEffort',
      ],
    ])('refuses %s (400)', async (_what, make, path) => {
      const otherClient = await newClient(`Other ${Math.random()}`);
      const other = (
        await admin.post(
          `/clients/${otherClient}/ai-connections`,
          compatibleProfile(fake.apiRoot, 'sk-other', { displayName: 'Other' }),
        )
      ).body as Connection;
      const res = await admin.post(overrides(), make(connection, other));
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(path);
    });

    it('repoints with PUT (204), refusing a name mismatch (400) and a missing name (404)', async () => {
      await admin.post(overrides(), {
        name: 'vectors',
        capability: 'embedding',
        connectionId: connection.id,
        configuredModelId: embedOf(connection),
      });
      const put = await admin.put(`${overrides()}/vectors`, {
        name: 'VECTORS',
        capability: 'embedding',
        connectionId: connection.id,
        configuredModelId: embedOf(connection),
        protocolMode: 'embeddings',
      });
      expect(put.status).toBe(204);
      expect((await admin.get(`${overrides()}/vectors`)).body).toMatchObject({
        name: 'VECTORS',
        protocolMode: 'embeddings',
      });
      const mismatch = await admin.put(`${overrides()}/vectors`, {
        name: 'other',
        capability: 'embedding',
        connectionId: connection.id,
        configuredModelId: embedOf(connection),
      });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.details[0].path).toBe('name');
      const missing = await admin.put(`${overrides()}/nothing`, {
        capability: 'chat',
        connectionId: connection.id,
        configuredModelId: chatOf(connection),
      });
      expect(missing.status).toBe(404);
    });

    it('maps purposes to effective names of the right capability, and lists them', async () => {
      const purposes = `/clients/${clientId}/logical-models/purposes`;
      const ok = await admin.put(`${purposes}/reviewDefault`, { logicalModelName: 'REVIEW-main' });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ purpose: 'reviewDefault', logicalModelName: 'review-main' });
      expect((await admin.put(`${purposes}/embeddingDefault`, { logicalModelName: 'vectors' })).status).toBe(200);
      const unknown = await admin.put(`${purposes}/reviewTriage`, { logicalModelName: 'nope' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.details[0].path).toBe('logicalModelName');
      const wrongCapability = await admin.put(`${purposes}/embeddingDefault`, { logicalModelName: 'review-main' });
      expect(wrongCapability.status).toBe(400);
      expect(wrongCapability.body.error).toContain('embeddingDefault needs an embedding model');
      const chatForEmbeddings = await admin.put(`${purposes}/reviewHighEffort`, { logicalModelName: 'vectors' });
      expect(chatForEmbeddings.status).toBe(400);
      const badPurpose = await admin.put(`${purposes}/reviewEverything`, { logicalModelName: 'review-main' });
      expect(badPurpose.status).toBe(400);
      expect(badPurpose.body.details[0].path).toBe('purpose');
      expect((await admin.put(`${purposes}/reviewTriage`, {})).status).toBe(400);

      const list = await admin.get(`/clients/${clientId}/logical-models`);
      expect(list.status).toBe(200);
      expect(list.body.items.map((m: { name: string; scope: string }) => [m.name, m.scope])).toEqual([
        ['review-main', 'client'],
        ['VECTORS', 'client'],
      ]);
      expect(list.body.purposes).toHaveLength(8);
      expect(list.body.purposes).toContainEqual({
        purpose: 'reviewDefault',
        requiredCapability: 'chat',
        logicalModelName: 'review-main',
      });
      expect(list.body.purposes).toContainEqual({
        purpose: 'embeddingDefault',
        requiredCapability: 'embedding',
        logicalModelName: 'VECTORS',
      });
      expect(list.body.purposes).toContainEqual({
        purpose: 'reviewTriage',
        requiredCapability: 'chat',
        logicalModelName: null,
      });
    });

    it('resolves purposes through the mapping, and falls back as decisions.md says', async () => {
      const review = await host.core.ai.resolvePurpose(clientId, 'reviewDefault');
      expect(review).toMatchObject({
        purpose: 'reviewDefault',
        resolvedPurpose: 'reviewDefault',
        via: 'logicalModel',
        logicalModelName: 'review-main',
        connectionId: connection.id,
        protocolMode: 'chatCompletions',
        reasoningEffort: 'medium',
        configuredModel: { remoteModelId: CHAT_MODEL },
      });
      expect(review.connection.auth).toEqual({ mode: 'apiKey', apiKey: 'sk-logical-models' });
      const answer = await review.model.chat({ messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.text).toBe('OK');
      const triage = await host.core.ai.resolvePurpose(clientId, 'reviewTriage');
      expect(triage).toMatchObject({
        purpose: 'reviewTriage',
        resolvedPurpose: 'reviewDefault',
        logicalModelName: 'review-main',
      });
      const embedding = await host.core.ai.resolvePurpose(clientId, 'embeddingDefault');
      expect(embedding).toMatchObject({ via: 'logicalModel', logicalModelName: 'VECTORS', protocolMode: 'embeddings' });
    });

    it('protects what purposes and logical models depend on (409)', async () => {
      const purposes = `/clients/${clientId}/logical-models/purposes`;
      const del = await admin.delete(`${overrides()}/review-main`);
      expect(del.status).toBe(409);
      expect(del.body).toMatchObject({ code: 'conflict', purposes: ['reviewDefault'] });
      const flip = await admin.put(`${overrides()}/review-main`, {
        capability: 'embedding',
        connectionId: connection.id,
        configuredModelId: embedOf(connection),
      });
      expect(flip.status).toBe(409);
      const conn = `/clients/${clientId}/ai-connections/${connection.id}`;
      const dropModel = await admin.patch(conn, {
        configuredModels: [
          { remoteModelId: EMBEDDING_MODEL, tokenizerName: 't', maxInputTokens: 1, embeddingDimensions: 768 },
        ],
        purposeBindings: [{ purpose: 'embeddingDefault', remoteModelId: EMBEDDING_MODEL }],
      });
      expect(dropModel.status).toBe(409);
      expect(dropModel.body.logicalModels).toEqual([{ name: 'review-main', scope: 'client' }]);
      const deleteConnection = await admin.delete(conn);
      expect(deleteConnection.status).toBe(409);
      expect(deleteConnection.body.error).toContain('review-main (client)');

      expect((await admin.delete(`${purposes}/reviewDefault`)).status).toBe(204);
      expect((await admin.delete(`${purposes}/reviewDefault`)).status).toBe(404);
      expect((await admin.delete(`${overrides()}/review-main`)).status).toBe(204);
      expect((await admin.get(`${overrides()}/review-main`)).status).toBe(404);
    });

    it('falls back to the profile bindings without a mapping; an inactive profile never resolves', async () => {
      const bound = await host.core.ai.resolvePurpose(clientId, 'reviewDefault');
      expect(bound).toMatchObject({ via: 'binding', logicalModelName: null, connectionId: connection.id });
      await admin.post(`/clients/${clientId}/ai-connections/${connection.id}/deactivate`);
      await expect(host.core.ai.resolvePurpose(clientId, 'reviewDefault')).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining('purpose reviewDefault'),
      });
      await expect(host.core.ai.resolvePurpose(clientId, 'reviewLowEffort')).rejects.toMatchObject({
        message: expect.stringContaining('reviewLowEffort'),
      });
      // embeddingDefault is mapped to a logical model whose connection is now inactive: a hard failure.
      await expect(host.core.ai.resolvePurpose(clientId, 'embeddingDefault')).rejects.toMatchObject({
        message: expect.stringContaining('is not active'),
      });
      await admin.delete(`/clients/${clientId}/logical-models/purposes/embeddingDefault`);
      expect(await host.core.ai.resolvePurpose(clientId, 'embeddingDefault')).toBeUndefined();
    });
  });

  describe('the tenant catalog', () => {
    it('refuses writes for the System tenant (400)', async () => {
      const clientId = await newClient('System writer');
      const c = await activeConnection(clientId);
      const entry = { name: 'shared', capability: 'chat', connectionId: c.id, configuredModelId: chatOf(c) };
      const writes: Array<[string, Promise<{ status: number; body: any }>]> = [
        ['logical model', admin.post(`/tenants/${SYSTEM_TENANT_ID}/logical-models`, entry)],
        ['put logical model', admin.put(`/tenants/${SYSTEM_TENANT_ID}/logical-models/shared`, entry)],
        ['delete logical model', admin.delete(`/tenants/${SYSTEM_TENANT_ID}/logical-models/shared`)],
        [
          'catalog model',
          admin.post(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/models`, {
            providerKind: 'kindCompatible',
            remoteModelId: 'm',
          }),
        ],
        ['delete catalog model', admin.delete(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/models/some-id`)],
        [
          'price override',
          admin.post(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/overrides`, {
            providerKind: 'kindDirect',
            remoteModelId: 'gpt-4o',
            inputCostPer1MUsd: 1,
          }),
        ],
        ['delete price override', admin.delete(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/overrides/some-id`)],
      ];
      for (const [what, pending] of writes) {
        const res = await pending;
        expect(res.status, what).toBe(400);
        expect(res.body.error, what).toContain('The System tenant has no tenant catalog');
      }
      expect((await admin.get(`/tenants/${SYSTEM_TENANT_ID}/logical-models`)).body).toEqual({ items: [] });
    });

    it('lets everyone browse the built-in catalog and the provider kinds, in Community too', async () => {
      const models = await admin.get(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/models?providerKind=kindAssistant`);
      expect(models.status).toBe(200);
      expect(models.body.items.map((m: { remoteModelId: string }) => m.remoteModelId)).toEqual([
        'claude-3-5-haiku-20241022',
        'claude-sonnet-4-20250514',
      ]);
      expect(models.body.items[0]).toMatchObject({
        isBuiltIn: true,
        priceOverridden: false,
        id: expect.stringMatching(/^builtin:/),
      });
      expect((await admin.get(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/models?providerKind=nope`)).status).toBe(400);
      const providers = await admin.get(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/providers`);
      expect(providers.body.items).toHaveLength(7);
      expect(providers.body.items).toContainEqual({
        providerKind: 'kindCloudA',
        protocolModes: ['auto', 'responses', 'chatCompletions', 'embeddings'],
        supportsDiscovery: false,
        catalogModelCount: 6,
      });
      expect((await admin.get(`/tenants/${SYSTEM_TENANT_ID}/model-catalog/overrides`)).body).toEqual({ items: [] });
    });

    it('in Commercial: tenant entries, shadowing by client overrides, protection, catalog models and prices; Community refuses writes (409)', async () => {
      expect((await admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
      const acme = (await admin.post('/admin/tenants', { displayName: 'Acme AI' })).body.id as string;
      const owner = await newClient('Acme platform', acme);
      const team = await newClient('Acme team', acme);
      const outsider = await newClient('Outside Acme');
      const shared = await activeConnection(owner, 'Shared models');
      const teamOwn = await activeConnection(team, 'Team models');
      const foreign = await activeConnection(outsider, 'Foreign');
      const entries = `/tenants/${acme}/logical-models`;

      const entry = await admin.post(entries, {
        name: 'review',
        capability: 'chat',
        connectionId: shared.id,
        configuredModelId: chatOf(shared),
        reasoningEffort: 'high',
      });
      expect(entry.status).toBe(201);
      expect(entry.body).toMatchObject({ scope: 'tenant', reasoningEffort: 'high' });
      expect(
        (
          await admin.post(entries, {
            name: 'embed',
            capability: 'embedding',
            connectionId: shared.id,
            configuredModelId: embedOf(shared),
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await admin.post(entries, {
            name: 'REVIEW',
            capability: 'chat',
            connectionId: shared.id,
            configuredModelId: chatOf(shared),
          })
        ).status,
      ).toBe(409);
      const crossTenant = await admin.post(entries, {
        name: 'foreign',
        capability: 'chat',
        connectionId: foreign.id,
        configuredModelId: chatOf(foreign),
      });
      expect(crossTenant.status).toBe(400);
      expect(crossTenant.body.details[0].path).toBe('connectionId');

      // The team maps purposes to tenant entries it does not define itself.
      expect(
        (await admin.put(`/clients/${team}/logical-models/purposes/reviewDefault`, { logicalModelName: 'review' }))
          .status,
      ).toBe(200);
      expect(
        (await admin.put(`/clients/${team}/logical-models/purposes/embeddingDefault`, { logicalModelName: 'embed' }))
          .status,
      ).toBe(200);
      const viaTenant = await host.core.ai.resolvePurpose(team, 'reviewDefault');
      expect(viaTenant).toMatchObject({
        via: 'logicalModel',
        logicalModelName: 'review',
        connectionId: shared.id,
        reasoningEffort: 'high',
      });
      // Purposes that depend on the tenant entry protect it.
      const del = await admin.delete(`${entries}/review`);
      expect(del.status).toBe(409);
      expect(del.body.purposes).toEqual(['reviewDefault']);

      // A client override of the same name shadows the tenant entry.
      const override = await admin.post(`/clients/${team}/logical-models/overrides`, {
        name: 'Review',
        capability: 'chat',
        connectionId: teamOwn.id,
        configuredModelId: chatOf(teamOwn),
      });
      expect(override.status).toBe(201);
      const effective = await admin.get(`/clients/${team}/logical-models`);
      expect(effective.body.items.map((m: any) => [m.name, m.scope, m.shadowsTenantEntry])).toEqual([
        ['embed', 'tenant', false],
        ['Review', 'client', true],
      ]);
      expect(await host.core.ai.resolvePurpose(team, 'reviewDefault')).toMatchObject({
        connectionId: teamOwn.id,
        reasoningEffort: 'none',
      });
      // With the tenant entry behind the name the override may go; then the mapping depends on the entry.
      expect((await admin.delete(`/clients/${team}/logical-models/overrides/review`)).status).toBe(204);
      expect((await admin.delete(`${entries}/review`)).status).toBe(409);
      expect((await admin.get(entries)).body.items.map((m: { name: string }) => m.name)).toEqual(['embed', 'review']);
      const flip = await admin.put(`${entries}/embed`, {
        capability: 'chat',
        connectionId: shared.id,
        configuredModelId: chatOf(shared),
      });
      expect(flip.status).toBe(409);
      expect(
        (
          await admin.put(`${entries}/embed`, {
            capability: 'embedding',
            connectionId: shared.id,
            configuredModelId: embedOf(shared),
            protocolMode: 'embeddings',
          })
        ).status,
      ).toBe(204);

      // Catalog: hand-defined models and price overrides, used for prices the profile lacks.
      const catalog = `/tenants/${acme}/model-catalog`;
      const defined = await admin.post(`${catalog}/models`, {
        providerKind: 'kindCompatible',
        remoteModelId: CHAT_MODEL,
        maxContextTokens: 32768,
        inputCostPer1MUsd: 0.2,
        outputCostPer1MUsd: 0.6,
      });
      expect(defined.status).toBe(201);
      expect(defined.body).toMatchObject({ isBuiltIn: false, operationKinds: ['chat'], displayName: CHAT_MODEL });
      expect(
        (
          await admin.post(`${catalog}/models`, {
            providerKind: 'kindCompatible',
            remoteModelId: CHAT_MODEL.toUpperCase(),
          })
        ).status,
      ).toBe(409);
      expect(
        (await admin.post(`${catalog}/models`, { providerKind: 'kindDirect', remoteModelId: 'gpt-4o' })).status,
      ).toBe(409);
      const embeddingWithoutShape = await admin.post(`${catalog}/models`, {
        providerKind: 'kindCompatible',
        remoteModelId: 'bge-embedding',
      });
      expect(embeddingWithoutShape.status).toBe(400);
      const created = await admin.post(`${catalog}/overrides`, {
        providerKind: 'kindCompatible',
        remoteModelId: CHAT_MODEL,
        outputCostPer1MUsd: 0.9,
      });
      expect(created.status).toBe(201);
      const replaced = await admin.post(`${catalog}/overrides`, {
        providerKind: 'kindCompatible',
        remoteModelId: CHAT_MODEL,
        outputCostPer1MUsd: 0.8,
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body.id).toBe(created.body.id);
      expect(
        (
          await admin.post(`${catalog}/overrides`, {
            providerKind: 'kindCompatible',
            remoteModelId: 'unknown-model',
            inputCostPer1MUsd: 1,
          })
        ).status,
      ).toBe(400);
      const listed = await admin.get(`${catalog}/models?providerKind=kindCompatible`);
      expect(listed.body.items).toEqual([
        expect.objectContaining({
          remoteModelId: CHAT_MODEL,
          inputCostPer1MUsd: 0.2,
          outputCostPer1MUsd: 0.8,
          priceOverridden: true,
        }),
      ]);
      expect((await admin.get(`${catalog}/providers`)).body.items).toContainEqual(
        expect.objectContaining({ providerKind: 'kindCompatible', catalogModelCount: 1 }),
      );
      expect((await host.core.ai.resolvePurpose(team, 'reviewDefault')).prices).toEqual({
        inputCostPer1MUsd: 0.2,
        outputCostPer1MUsd: 0.8,
        cachedInputCostPer1MUsd: undefined,
      });

      // Community: nothing is deleted, tenant writes are refused, tenant entries stop resolving.
      expect((await admin.patch('/admin/licensing', { edition: 'Community' })).status).toBe(200);
      const refused = await admin.post(`${catalog}/models`, {
        providerKind: 'kindCompatible',
        remoteModelId: 'another',
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'license_required', capability: 'multi-tenancy' });
      expect((await admin.delete(`${catalog}/overrides/${created.body.id}`)).status).toBe(409);
      expect(
        (
          await admin.post(entries, {
            name: 'later',
            capability: 'chat',
            connectionId: shared.id,
            configuredModelId: chatOf(shared),
          })
        ).status,
      ).toBe(409);
      expect((await admin.get(entries)).body.items).toHaveLength(2);
      await expect(host.core.ai.resolvePurpose(team, 'embeddingDefault')).rejects.toMatchObject({
        message: expect.stringContaining('embed, which is not a logical model of this client'),
      });

      await admin.patch('/admin/licensing', { edition: 'Commercial' });
      expect((await admin.delete(`${catalog}/overrides/${created.body.id}`)).status).toBe(204);
      expect((await admin.delete(`${catalog}/models/${defined.body.id}`)).status).toBe(204);
      expect((await admin.delete(`${catalog}/models/${defined.body.id}`)).status).toBe(404);
      await admin.patch('/admin/licensing', { edition: 'Community' });
    });
  });
});
