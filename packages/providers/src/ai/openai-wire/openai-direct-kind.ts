import type { AiProviderKindV1 } from '@margin/core/spec';
import { joinUrl } from '../../utils/index.js';
import type { AiRuntime } from '../shared/ai-runtime.js';
import { apiKeyOf, baseUrlOf, defaultHeadersOf, pathOf } from '../shared/connection-settings.js';
import { discoverySucceeded } from '../shared/discovery.js';
import { OPENAI_MODELS } from '../shared/known-models.js';
import { inspectOpenAiError } from './openai-errors.js';
import { listOpenAiModels } from './openai-model-listing.js';
import { defineOpenAiWireKind, OPENAI_STYLE_PROTOCOLS } from './openai-wire-kind.js';
import type { OpenAiOperation } from './openai-wire-target.js';

export const OPENAI_PATHS: Readonly<Record<OpenAiOperation, string>> = {
  responses: 'responses',
  chatCompletions: 'chat/completions',
  embeddings: 'embeddings',
  models: 'models',
};

/**
 * `kindDirect`: OpenAI. `baseUrl` is the API root (`https://api.openai.com/v1`; a bare host gets
 * `/v1`; empty means the public API). Bearer key. `auto` chats over the Responses API.
 */
export function createOpenAiKind(runtime: AiRuntime): AiProviderKindV1 {
  return defineOpenAiWireKind({
    kind: 'kindDirect',
    displayName: 'OpenAI',
    protocols: OPENAI_STYLE_PROTOCOLS,
    supportsDiscovery: true,
    defaultEndpoint: 'https://api.openai.com/v1',
    requiresApiKey: true,
    knownModels: OPENAI_MODELS,
    target(connection) {
      const base = baseUrlOf(connection, 'https://api.openai.com/v1');
      const root = pathOf(base) === '' ? joinUrl(base, 'v1') : joinUrl(base);
      const key = apiKeyOf(connection, 'OpenAI');
      return {
        kind: 'kindDirect',
        provider: 'OpenAI',
        transport: runtime.transport({ provider: 'OpenAI', secrets: () => [key], inspectError: inspectOpenAiError }),
        autoChatMode: 'responses',
        maxTokensField: 'max_completion_tokens',
        sendsEmbeddingDimensions: true,
        url: (operation) => joinUrl(root, OPENAI_PATHS[operation]),
        query: () => ({ ...connection.defaultQueryParams }),
        headers: async () => ({ ...defaultHeadersOf(connection), authorization: `Bearer ${key}` }),
      };
    },
    async probe(target) {
      const models = await listOpenAiModels(target);
      return { summary: `OpenAI accepted the key; ${models.length} text models are visible to it.` };
    },
    async discover(target) {
      return discoverySucceeded(await listOpenAiModels(target));
    },
  });
}
