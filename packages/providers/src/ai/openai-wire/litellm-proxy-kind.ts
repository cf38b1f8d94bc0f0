import { type AiProviderKindV1, type DiscoveredModel, MarginError } from '@margin/core/spec';
import { type JsonObject, joinUrl, readArray, readNumber, readObject, readString } from '../../utils/index.js';
import type { AiRuntime } from '../shared/ai-runtime.js';
import { apiKeyOf, baseUrlOf, defaultHeadersOf, pathOf } from '../shared/connection-settings.js';
import { discoverySucceeded } from '../shared/discovery.js';
import { OPENAI_MODELS } from '../shared/known-models.js';
import { OPENAI_PATHS } from './openai-direct-kind.js';
import { inspectOpenAiError } from './openai-errors.js';
import { listOpenAiModels } from './openai-model-listing.js';
import { defineOpenAiWireKind, OPENAI_STYLE_PROTOCOLS } from './openai-wire-kind.js';
import type { OpenAiWireTarget } from './openai-wire-target.js';

/** The proxy root (`https://litellm.example.com`) and its OpenAI root (`…/v1`), whichever was given. */
function proxyRoots(baseUrl: URL): { serverRoot: string; apiRoot: string } {
  const serverRoot = `${baseUrl.origin}${pathOf(baseUrl).replace(/\/v1$/i, '')}`;
  return { serverRoot, apiRoot: joinUrl(serverRoot, 'v1') };
}

/**
 * `kindProxy`: a LiteLLM proxy. `baseUrl` is the proxy (`/v1` optional), the key a virtual or
 * master key (Bearer). `auto` uses Chat Completions, the most portable route through the proxy.
 * Discovery reads `/model/info` (modes, limits, prices) and falls back to `/v1/models`.
 */
export function createLiteLlmProxyKind(runtime: AiRuntime): AiProviderKindV1 {
  return defineOpenAiWireKind({
    kind: 'kindProxy',
    displayName: 'LiteLLM proxy',
    protocols: OPENAI_STYLE_PROTOCOLS,
    supportsDiscovery: true,
    requiresApiKey: true,
    knownModels: OPENAI_MODELS,
    target(connection) {
      const { apiRoot } = proxyRoots(baseUrlOf(connection));
      const key = apiKeyOf(connection, 'LiteLLM');
      return {
        kind: 'kindProxy',
        provider: 'LiteLLM',
        transport: runtime.transport({ provider: 'LiteLLM', secrets: () => [key], inspectError: inspectOpenAiError }),
        autoChatMode: 'chatCompletions',
        // Understood by every backend LiteLLM routes to; it maps it for reasoning models itself.
        maxTokensField: 'max_tokens',
        sendsEmbeddingDimensions: true,
        url: (operation) => joinUrl(apiRoot, OPENAI_PATHS[operation]),
        query: () => ({ ...connection.defaultQueryParams }),
        headers: async () => ({ ...defaultHeadersOf(connection), ...(key ? { authorization: `Bearer ${key}` } : {}) }),
      };
    },
    async probe(target) {
      const models = await listOpenAiModels(target);
      return { summary: `LiteLLM accepted the key; ${models.length} models are routed for it.` };
    },
    async discover(target, connection) {
      const { serverRoot } = proxyRoots(baseUrlOf(connection));
      try {
        return discoverySucceeded(await readModelInfo(target, joinUrl(serverRoot, 'model/info')));
      } catch (error) {
        const failure = MarginError.isInstance(error) ? error.details.providerFailure : undefined;
        // Keys without /model/info access, or proxies that hide it, still list /v1/models.
        if (failure === 'credentials') throw error;
        const models = await listOpenAiModels(target);
        return discoverySucceeded(models, [
          'LiteLLM /model/info was not available, so models were listed from /v1/models without limits or prices.',
        ]);
      }
    },
  });
}

const CHAT_MODES = new Set(['chat', 'completion', 'responses']);

async function readModelInfo(target: OpenAiWireTarget, url: string): Promise<DiscoveredModel[]> {
  const response = await target.transport.request<unknown>({
    url,
    query: target.query(),
    headers: await target.headers(),
  });
  const data = readObject(response.data)?.data;
  if (!Array.isArray(data))
    throw MarginError.provider('invalidResponse', 'LiteLLM /model/info answered in an unexpected shape.');
  const models: DiscoveredModel[] = [];
  for (const entry of readArray(data).map((item) => readObject(item))) {
    const name = readString(entry?.model_name);
    const info = readObject(entry?.model_info) ?? {};
    if (!name) continue;
    const mode = readString(info.mode);
    const kinds: Array<'chat' | 'embedding'> | undefined =
      mode === 'embedding' ? ['embedding'] : mode === undefined || CHAT_MODES.has(mode) ? ['chat'] : undefined;
    if (!kinds) continue; // image generation, audio, rerank, moderation
    models.push(modelFromInfo(name, info, kinds));
  }
  return models;
}

function modelFromInfo(name: string, info: JsonObject, kinds: Array<'chat' | 'embedding'>): DiscoveredModel {
  const embedding = kinds.includes('embedding');
  const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
  return {
    remoteModelId: name,
    operationKinds: kinds,
    maxContextTokens: embedding ? undefined : readNumber(info.max_input_tokens),
    maxInputTokens: embedding ? readNumber(info.max_input_tokens) : undefined,
    embeddingDimensions: readNumber(info.output_vector_size),
    supportsToolUse: flag(info.supports_function_calling),
    supportsStructuredOutput: flag(info.supports_response_schema),
    // LiteLLM prices are per token; the profile's are per million.
    inputCostPer1MUsd: perMillion(info.input_cost_per_token),
    outputCostPer1MUsd: perMillion(info.output_cost_per_token),
    cachedInputCostPer1MUsd: perMillion(info.cache_read_input_token_cost),
  };
}

function perMillion(perToken: unknown): number | undefined {
  const value = readNumber(perToken);
  // Rounded to a millionth of a dollar to drop floating-point noise (2.5e-6 * 1e6 = 2.4999999999999996).
  return value === undefined ? undefined : Math.round(value * 1e12) / 1e6;
}
