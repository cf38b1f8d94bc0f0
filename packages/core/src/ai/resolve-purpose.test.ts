import { describe, expect, it } from 'vitest';
import type { AiConnectionConfig, AiModelSpec, AiProviderKindV1 } from '../ai-model/index.js';
import { createMarginCore } from '../core.js';
import type { Actor } from '../kernel/index.js';
import { createAesGcmSecretBox, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { createMemoryStorage } from '../storage/index.js';
import { createManualClock, createSequentialIds } from '../testing/index.js';

const ADMIN: Actor = { userId: 'admin', username: 'admin', globalRole: 'platformAdmin', via: 'accessToken' };
const KEY = 'sk-resolve-secret';

/** A provider kind that answers every call and remembers the models it was asked to create. */
function fakeKind(): AiProviderKindV1 & { created: Array<{ config: AiConnectionConfig; spec: AiModelSpec }> } {
  const created: Array<{ config: AiConnectionConfig; spec: AiModelSpec }> = [];
  return {
    specificationVersion: 'v1',
    kind: 'kindDirect',
    displayName: 'OpenAI',
    protocols: [
      { mode: 'responses', operation: 'chat' },
      { mode: 'chatCompletions', operation: 'chat' },
      { mode: 'embeddings', operation: 'embedding' },
    ],
    defaultEndpoint: 'https://api.openai.com/v1',
    requiresApiKey: true,
    // The kind's catalog: what a configured model without prices falls back to.
    knownModels: [
      {
        remoteModelId: 'gpt-4.1',
        displayName: 'GPT-4.1',
        operationKinds: ['chat'],
        supportsStructuredOutput: true,
        supportsToolUse: true,
        inputCostPer1MUsd: 2,
        cachedInputCostPer1MUsd: 0.5,
        outputCostPer1MUsd: 8,
      },
    ],
    supportsDiscovery: true,
    created,
    async probe() {
      return { status: 'succeeded', summary: 'Fake answered.', warnings: [] };
    },
    async discoverModels() {
      return { discoveryStatus: 'succeeded', manualEntryAllowed: true, warnings: [], models: [] };
    },
    createModel(config, spec) {
      created.push({ config, spec });
      return {
        specificationVersion: 'v1',
        providerKind: 'kindDirect',
        remoteModelId: spec.remoteModelId,
        async chat() {
          return {
            text: 'OK',
            toolCalls: [],
            finishReason: 'stop',
            usage: { inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 1, reasoningTokens: 0 },
            protocolMode: 'responses',
          };
        },
        async embed(texts) {
          return {
            vectors: texts.map(() => Array.from({ length: spec.embeddingDimensions ?? 64 }, () => 0)),
            usage: { inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 },
          };
        },
      };
    },
  };
}

async function setup() {
  const kind = fakeKind();
  const clock = createManualClock();
  const core = createMarginCore({
    storage: createMemoryStorage(),
    secrets: createAesGcmSecretBox(Buffer.alloc(32, 7)),
    auth: { jwtSecret: 'x'.repeat(32) },
    providers: { scm: [], ai: [kind] },
    clock,
    ids: createSequentialIds(),
  });
  const client = await core.tenancy.createClient(ADMIN, { displayName: 'Resolve', tenantId: SYSTEM_TENANT_ID });
  let n = 0;
  /** A profile (active unless said otherwise) with a chat and an embedding model. */
  const profile = async (options: { active?: boolean; bindings?: unknown[]; chat?: Record<string, unknown> } = {}) => {
    clock.advance(1000);
    const created = await core.ai.createAiConnection(ADMIN, client.id, {
      displayName: `Profile ${++n}`,
      providerKind: 'kindDirect',
      baseUrl: 'https://api.openai.com/v1',
      auth: { mode: 'apiKey', apiKey: KEY },
      configuredModels: [
        { remoteModelId: 'gpt-4.1', ...options.chat },
        {
          remoteModelId: 'text-embedding-3-small',
          tokenizerName: 'cl100k_base',
          maxInputTokens: 8191,
          embeddingDimensions: 1536,
        },
      ],
      purposeBindings: options.bindings ?? [
        { purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' },
        { purpose: 'embeddingDefault', remoteModelId: 'text-embedding-3-small' },
      ],
    });
    if (options.active !== false) {
      expect((await core.ai.verifyAiConnection(ADMIN, client.id, created.id)).status).toBe('verified');
      await core.ai.activateAiConnection(ADMIN, client.id, created.id);
    }
    const [chat, embed] = created.configuredModels.map((m) => m.id);
    return { id: created.id, chat: chat ?? '', embed: embed ?? '' };
  };
  return { core, kind, clientId: client.id, profile };
}

describe('resolvePurpose', () => {
  it('follows the purpose mapping to the logical model, its connection and model, with the key opened', async () => {
    const { core, kind, clientId, profile } = await setup();
    await profile();
    const target = await profile({ bindings: [{ purpose: 'reviewTriage', remoteModelId: 'gpt-4.1' }] });
    await core.ai.createClientLogicalModel(ADMIN, clientId, {
      name: 'deep',
      capability: 'chat',
      connectionId: target.id,
      configuredModelId: target.chat,
      reasoningEffort: 'high',
      protocolMode: 'responses',
    });
    await core.ai.putClientPurpose(ADMIN, clientId, 'reviewDefault', { logicalModelName: 'deep' });
    const resolved = await core.ai.resolvePurpose(clientId, 'reviewDefault');
    expect(resolved).toMatchObject({
      purpose: 'reviewDefault',
      resolvedPurpose: 'reviewDefault',
      via: 'logicalModel',
      logicalModelName: 'deep',
      connectionId: target.id,
      configuredModel: { id: target.chat, remoteModelId: 'gpt-4.1' },
      protocolMode: 'responses',
      reasoningEffort: 'high',
      connection: { providerKind: 'kindDirect', auth: { mode: 'apiKey', apiKey: KEY } },
    });
    expect(kind.created.at(-1)?.spec).toEqual({
      remoteModelId: 'gpt-4.1',
      protocolMode: 'responses',
      operationKinds: ['chat'],
      supportsStructuredOutput: false,
      supportsToolUse: false,
      embeddingDimensions: undefined,
    });
    expect((await resolved.model.chat({ messages: [{ role: 'user', content: 'x' }] })).text).toBe('OK');
  });

  it('takes the mapping over any binding, and a binding only when there is no mapping', async () => {
    const { core, clientId, profile } = await setup();
    const first = await profile();
    const second = await profile();
    expect(await core.ai.resolvePurpose(clientId, 'reviewDefault')).toMatchObject({
      via: 'binding',
      connectionId: first.id,
      logicalModelName: null,
      reasoningEffort: 'none',
    });
    await core.ai.createClientLogicalModel(ADMIN, clientId, {
      name: 'second',
      capability: 'chat',
      connectionId: second.id,
      configuredModelId: second.chat,
    });
    await core.ai.putClientPurpose(ADMIN, clientId, 'reviewDefault', { logicalModelName: 'second' });
    expect(await core.ai.resolvePurpose(clientId, 'reviewDefault')).toMatchObject({
      via: 'logicalModel',
      connectionId: second.id,
    });
  });

  it('uses the oldest active profile’s enabled binding; inactive profiles and disabled bindings never resolve', async () => {
    const { core, clientId, profile } = await setup();
    await profile({ active: false });
    const disabled = await profile({
      bindings: [{ purpose: 'reviewDefault', remoteModelId: 'gpt-4.1', isEnabled: false }],
    });
    const used = await profile();
    await profile();
    const resolved = await core.ai.resolvePurpose(clientId, 'reviewDefault');
    expect(resolved.connectionId).toBe(used.id);
    expect(resolved.connectionId).not.toBe(disabled.id);
  });

  it('fails an unresolvable reviewDefault naming the purpose, and other purposes fall back to it', async () => {
    const { core, clientId, profile } = await setup();
    await profile({ active: false });
    await expect(core.ai.resolvePurpose(clientId, 'reviewDefault')).rejects.toMatchObject({
      code: 'conflict',
      details: { purpose: 'reviewDefault' },
      message: expect.stringContaining('No AI model serves the purpose reviewDefault'),
    });
    await expect(core.ai.resolvePurpose(clientId, 'memoryReconsideration')).rejects.toMatchObject({
      details: { purpose: 'memoryReconsideration' },
    });
    await profile({ bindings: [{ purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' }] });
    for (const purpose of [
      'reviewTriage',
      'reviewLowEffort',
      'reviewMediumEffort',
      'reviewHighEffort',
      'reviewVerification',
      'memoryReconsideration',
    ] as const) {
      expect(await core.ai.resolvePurpose(clientId, purpose)).toMatchObject({
        purpose,
        resolvedPurpose: 'reviewDefault',
      });
    }
  });

  it('resolves an unmapped, unbound embeddingDefault to undefined, and a bound one to the embedding model', async () => {
    const { core, clientId, profile } = await setup();
    await profile({ bindings: [{ purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' }] });
    expect(await core.ai.resolvePurpose(clientId, 'embeddingDefault')).toBeUndefined();
    const withEmbeddings = await profile();
    const resolved = await core.ai.resolvePurpose(clientId, 'embeddingDefault');
    expect(resolved).toMatchObject({
      connectionId: withEmbeddings.id,
      configuredModel: { remoteModelId: 'text-embedding-3-small' },
      protocolMode: 'embeddings',
    });
    expect((await resolved?.model.embed(['a']))?.vectors[0]).toHaveLength(1536);
  });

  it('fails a broken mapping instead of falling through to bindings', async () => {
    const { core, clientId, profile } = await setup();
    const target = await profile();
    await core.ai.createClientLogicalModel(ADMIN, clientId, {
      name: 'main',
      capability: 'chat',
      connectionId: target.id,
      configuredModelId: target.chat,
    });
    await core.ai.putClientPurpose(ADMIN, clientId, 'reviewDefault', { logicalModelName: 'main' });
    await core.ai.deactivateAiConnection(ADMIN, clientId, target.id);
    await profile();
    await expect(core.ai.resolvePurpose(clientId, 'reviewDefault')).rejects.toMatchObject({
      code: 'conflict',
      details: { purpose: 'reviewDefault', logicalModelName: 'main' },
      message: expect.stringContaining('is not active'),
    });
  });

  it('answers 404 for an unknown client', async () => {
    const { core } = await setup();
    await expect(core.ai.resolvePurpose('00000000-0000-4000-8000-00000000ffff', 'reviewDefault')).rejects.toMatchObject(
      {
        code: 'not_found',
      },
    );
  });

  it('narrows auto to the one chat protocol a model declares, and takes missing prices from the catalog', async () => {
    const { core, clientId, profile } = await setup();
    await profile({ chat: { supportedProtocolModes: ['auto', 'chatCompletions'], outputCostPer1MUsd: 9 } });
    const resolved = await core.ai.resolvePurpose(clientId, 'reviewDefault');
    expect(resolved.protocolMode).toBe('chatCompletions');
    // gpt-4.1 is in the kind's own catalog: 2 / 0.5 cached / 8 per million.
    expect(resolved.prices).toEqual({ inputCostPer1MUsd: 2, outputCostPer1MUsd: 9, cachedInputCostPer1MUsd: 0.5 });
  });
});
