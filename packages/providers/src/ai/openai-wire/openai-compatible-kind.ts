import { type AiConnectionConfig, type AiProtocolV1, type AiProviderKindV1, MarginError } from '@margin/core/spec';
import { joinUrl } from '../../utils/index.js';
import type { AiRuntime } from '../shared/ai-runtime.js';
import { apiKeyOf, baseUrlOf, defaultHeadersOf, pathOf } from '../shared/connection-settings.js';
import { discoverySucceeded } from '../shared/discovery.js';
import { OPENAI_PATHS } from './openai-direct-kind.js';
import { inspectOpenAiError } from './openai-errors.js';
import { listOpenAiModels } from './openai-model-listing.js';
import { defineOpenAiWireKind } from './openai-wire-kind.js';
import type { OpenAiWireTarget } from './openai-wire-target.js';

/** decisions.md: compatible servers get no Responses API, whatever they claim. */
export const COMPATIBLE_PROTOCOLS: readonly AiProtocolV1[] = [
  { mode: 'chatCompletions', operation: 'chat' },
  { mode: 'embeddings', operation: 'embedding' },
];

/** The OpenAI root of the server: the base URL as given, or `/v1` on a bare host. */
function apiRootOf(connection: AiConnectionConfig): string {
  const base = baseUrlOf(connection);
  return pathOf(base) === '' ? joinUrl(base, 'v1') : joinUrl(base);
}

/**
 * `kindCompatible`: any OpenAI-compatible server (vLLM, Ollama, LM Studio, TGI, OpenRouter, …).
 * Bearer only when a key is set. Chat Completions only, with `max_tokens` (what most such servers
 * read). Discovery lists `{root}/models`, then tries the other of `/v1/models` and `/models`.
 */
export function createOpenAiCompatibleKind(runtime: AiRuntime): AiProviderKindV1 {
  const list = async (target: OpenAiWireTarget, connection: AiConnectionConfig) => {
    const root = apiRootOf(connection);
    try {
      return await listOpenAiModels(target);
    } catch (error) {
      if (!MarginError.isInstance(error) || error.code !== 'not_found') throw error;
      const other = /\/v1$/i.test(root) ? root.replace(/\/v1$/i, '') : joinUrl(root, 'v1');
      return listOpenAiModels(target, joinUrl(other, 'models'));
    }
  };

  return defineOpenAiWireKind({
    kind: 'kindCompatible',
    displayName: 'OpenAI-compatible server',
    protocols: COMPATIBLE_PROTOCOLS,
    supportsDiscovery: true,
    // Local servers (Ollama, LM Studio, vLLM) often run without a key.
    requiresApiKey: false,
    target(connection) {
      const root = apiRootOf(connection);
      const key = apiKeyOf(connection, 'OpenAI-compatible');
      return {
        kind: 'kindCompatible',
        provider: 'The OpenAI-compatible server',
        transport: runtime.transport({
          provider: 'The OpenAI-compatible server',
          secrets: () => [key],
          inspectError: inspectOpenAiError,
        }),
        autoChatMode: 'chatCompletions',
        maxTokensField: 'max_tokens',
        // Many servers refuse `dimensions` for models without Matryoshka support.
        sendsEmbeddingDimensions: false,
        url: (operation) => joinUrl(root, OPENAI_PATHS[operation]),
        query: () => ({ ...connection.defaultQueryParams }),
        headers: async () => ({ ...defaultHeadersOf(connection), ...(key ? { authorization: `Bearer ${key}` } : {}) }),
      };
    },
    configurationWarnings(connection) {
      return connection.auth.mode === 'apiKey' && connection.auth.apiKey.trim() === ''
        ? ['No API key is set, so calls are sent without an Authorization header.']
        : [];
    },
    async probe(target, connection) {
      const models = await list(target, connection);
      return { summary: `The server answered the model list with ${models.length} models.` };
    },
    async discover(target, connection) {
      return discoverySucceeded(await list(target, connection));
    },
  });
}
