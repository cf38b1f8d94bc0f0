import { describe, expect, it } from 'vitest';
import type { AiModelV1, AiProviderKindV1 } from '../ai-model/index.js';
import { bindReviewModel } from './model-binding.js';

describe('bindReviewModel', () => {
  const created: unknown[] = [];
  const kind: AiProviderKindV1 = {
    specificationVersion: 'v1',
    kind: 'kindCompatible',
    displayName: 'OpenAI-compatible',
    protocols: [{ mode: 'chatCompletions', operation: 'chat' }],
    requiresApiKey: false,
    supportsDiscovery: true,
    probe: async () => ({ status: 'succeeded', summary: '', warnings: [] }),
    discoverModels: async () => ({ discoveryStatus: 'succeeded', manualEntryAllowed: true, warnings: [], models: [] }),
    createModel(connection, spec) {
      created.push({ connection, spec });
      return {
        specificationVersion: 'v1',
        providerKind: 'kindCompatible',
        remoteModelId: spec.remoteModelId,
      } as AiModelV1;
    },
  };

  it('builds the model through the kind, as the service does', () => {
    const bound = bindReviewModel({
      kinds: [kind],
      providerKind: 'kindCompatible',
      baseUrl: 'http://127.0.0.1:11434/v1',
      remoteModelId: 'qwen2.5-coder',
      allowPrivateEgress: true,
    });
    expect(created.at(-1)).toMatchObject({
      connection: { baseUrl: 'http://127.0.0.1:11434/v1', auth: { mode: 'apiKey', apiKey: '' } },
      spec: { remoteModelId: 'qwen2.5-coder', protocolMode: 'chatCompletions', supportsStructuredOutput: false },
    });
    expect(bound.traits).toMatchObject({ maxContextTokens: null });
  });

  it('applies the service’s endpoint, key and egress rules', () => {
    const bind = (over: Partial<Parameters<typeof bindReviewModel>[0]>) => () =>
      bindReviewModel({
        kinds: [kind],
        providerKind: 'kindCompatible',
        baseUrl: 'http://127.0.0.1:11434/v1',
        remoteModelId: 'm',
        allowPrivateEgress: false,
        ...over,
      });
    expect(bind({})).toThrow(/baseUrl/);
    expect(bind({ baseUrl: '' })).toThrow('baseUrl is required for kindCompatible.');
    expect(bind({ providerKind: 'kindDirect', baseUrl: '' })).toThrow(/not available in this installation/);
  });
});
