import { describe, expect, it } from 'vitest';
import type { AiProbeResult, AiProviderKindV1 } from '../ai-model/index.js';
import { createMarginCore } from '../core.js';
import type { Actor } from '../kernel/index.js';
import { createAesGcmSecretBox, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { createMemoryStorage } from '../storage/index.js';

const ADMIN: Actor = { userId: 'admin', username: 'admin', globalRole: 'platformAdmin', via: 'accessToken' };

/** A kind whose probe waits until the test lets it answer. */
function gatedKind() {
  let release: (result: AiProbeResult) => void = () => undefined;
  const kind: AiProviderKindV1 = {
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
    supportsDiscovery: true,
    probe: () =>
      new Promise<AiProbeResult>((resolve) => {
        release = resolve;
      }),
    async discoverModels() {
      return { discoveryStatus: 'succeeded', manualEntryAllowed: true, warnings: [], models: [] };
    },
    createModel(_config, spec) {
      return {
        specificationVersion: 'v1',
        providerKind: 'kindDirect',
        remoteModelId: spec.remoteModelId,
        async chat() {
          return {
            text: 'OK',
            toolCalls: [],
            finishReason: 'stop',
            usage: { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 },
            protocolMode: 'responses',
          };
        },
        async embed() {
          throw new Error('not used');
        },
      };
    },
  };
  return { kind, answer: (result: AiProbeResult) => release(result) };
}

describe('verify', () => {
  it('stores nothing (409) when the profile changed while it was being verified', async () => {
    const gated = gatedKind();
    const core = createMarginCore({
      storage: createMemoryStorage(),
      secrets: createAesGcmSecretBox(Buffer.alloc(32, 1)),
      auth: { jwtSecret: 'y'.repeat(32) },
      providers: { scm: [], ai: [gated.kind] },
    });
    const client = await core.tenancy.createClient(ADMIN, { displayName: 'Race', tenantId: SYSTEM_TENANT_ID });
    const profile = await core.ai.createAiConnection(ADMIN, client.id, {
      displayName: 'Racy',
      providerKind: 'kindDirect',
      auth: { mode: 'apiKey', apiKey: 'sk-race' },
      configuredModels: [{ remoteModelId: 'gpt-4.1' }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' }],
    });
    const pending = core.ai.verifyAiConnection(ADMIN, client.id, profile.id);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await core.ai.patchAiConnection(ADMIN, client.id, profile.id, {
      baseUrl: 'https://eu.api.openai.com/v1',
      auth: { mode: 'apiKey', apiKey: 'sk-race-eu' },
    });
    gated.answer({ status: 'succeeded', summary: 'ok', warnings: [] });
    await expect(pending).rejects.toMatchObject({ code: 'conflict' });
    const stored = await core.ai.getAiConnection(ADMIN, client.id, profile.id);
    expect(stored.verification.status).toBe('neverVerified');
    await expect(core.ai.activateAiConnection(ADMIN, client.id, profile.id)).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});
