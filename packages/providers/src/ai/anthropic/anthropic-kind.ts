import {
  type AiConnectionConfig,
  type AiModelSpec,
  type AiModelV1,
  type AiProtocolV1,
  type AiProviderKindV1,
  type DiscoveredModel,
  MarginError,
  modesOf,
} from '@margin/core/spec';
import { type HttpTransport, joinUrl, readArray, readNumber, readObject, readString } from '../../utils/index.js';
import type { AiRuntime } from '../shared/ai-runtime.js';
import { apiKeyOf, baseUrlOf, defaultHeadersOf, pathOf } from '../shared/connection-settings.js';
import { discoverWith, discoverySucceeded } from '../shared/discovery.js';
import { ANTHROPIC_MODELS } from '../shared/known-models.js';
import { probeWith } from '../shared/probe-outcome.js';
import { assertModePermitted, chatModeOf } from '../shared/protocol-mode.js';
import { estimateTokens } from '../shared/token-count.js';
import { inspectAnthropicError } from './anthropic-errors.js';
import { buildMessagesBody, parseMessagesBody } from './anthropic-messages.js';

export const ANTHROPIC_PROTOCOLS: readonly AiProtocolV1[] = [{ mode: 'messagesApi', operation: 'chat' }];
export const ANTHROPIC_VERSION = '2023-06-01';
const MAX_MODEL_PAGES = 10;

interface AnthropicTarget {
  transport: HttpTransport;
  root: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

function targetOf(runtime: AiRuntime, connection: AiConnectionConfig): AnthropicTarget {
  const base = baseUrlOf(connection, 'https://api.anthropic.com');
  const key = apiKeyOf(connection, 'Anthropic');
  return {
    transport: runtime.transport({ provider: 'Anthropic', secrets: () => [key], inspectError: inspectAnthropicError }),
    root: /\/v1$/i.test(pathOf(base)) ? joinUrl(base) : joinUrl(base, 'v1'),
    query: { ...connection.defaultQueryParams },
    // defaultHeaders may pin another anthropic-version or add anthropic-beta; the key always wins.
    headers: { 'anthropic-version': ANTHROPIC_VERSION, ...defaultHeadersOf(connection), 'x-api-key': key },
  };
}

/**
 * `kindAssistant`: the Anthropic Messages API. `x-api-key` + `anthropic-version`. Structured
 * output uses `output_config.format` for models declared with structured output, otherwise a
 * forced answer tool. Anthropic has no embeddings API.
 */
export function createAnthropicKind(runtime: AiRuntime): AiProviderKindV1 {
  const listModels = async (target: AnthropicTarget, limit: number, pages: number): Promise<DiscoveredModel[]> => {
    const models: DiscoveredModel[] = [];
    let after: string | undefined;
    for (let page = 0; page < pages; page++) {
      const response = await target.transport.request<unknown>({
        url: joinUrl(target.root, 'models'),
        query: { ...target.query, limit, after_id: after },
        headers: target.headers,
      });
      const body = readObject(response.data);
      if (!Array.isArray(body?.data)) {
        throw MarginError.provider('invalidResponse', 'Anthropic answered the model list in an unexpected shape.');
      }
      for (const entry of readArray(body.data).map((item) => readObject(item))) {
        const id = readString(entry?.id);
        if (!id) continue;
        models.push({
          remoteModelId: id,
          displayName: readString(entry?.display_name),
          operationKinds: ['chat'],
          maxContextTokens: readNumber(entry?.max_input_tokens),
          supportsToolUse: true,
        });
      }
      after = readString(body.last_id);
      if (body.has_more !== true || !after) break;
    }
    return models;
  };

  return {
    specificationVersion: 'v1',
    kind: 'kindAssistant',
    displayName: 'Anthropic',
    protocols: ANTHROPIC_PROTOCOLS,
    supportsDiscovery: true,
    defaultEndpoint: 'https://api.anthropic.com',
    requiresApiKey: true,
    knownModels: ANTHROPIC_MODELS,
    async probe(connection) {
      const target = targetOf(runtime, connection);
      return probeWith(async () => {
        await listModels(target, 1, 1);
        return { summary: 'Anthropic accepted the key and answered the model list.' };
      });
    },
    async discoverModels(connection) {
      const target = targetOf(runtime, connection);
      return discoverWith(async () => discoverySucceeded(await listModels(target, 1000, MAX_MODEL_PAGES)));
    },
    createModel(connection: AiConnectionConfig, spec: AiModelSpec): AiModelV1 {
      assertModePermitted('kindAssistant', modesOf({ protocols: ANTHROPIC_PROTOCOLS }), spec);
      const target = targetOf(runtime, connection);
      return {
        specificationVersion: 'v1',
        providerKind: 'kindAssistant',
        remoteModelId: spec.remoteModelId,
        // No local tokenizer for these vendors' models: the engine budgets with the estimate.
        countTokens: estimateTokens,
        async chat(request) {
          chatModeOf('kindAssistant', spec, 'messagesApi');
          const call = buildMessagesBody(spec.remoteModelId, request, {
            defaultMaxTokens: runtime.defaultMaxOutputTokens,
            nativeStructuredOutput: spec.supportsStructuredOutput,
          });
          const response = await target.transport.request<unknown>({
            method: 'POST',
            url: joinUrl(target.root, 'messages'),
            query: target.query,
            headers: target.headers,
            json: call.body,
            signal: request.signal,
          });
          return parseMessagesBody(response.data, call.answerTool);
        },
        async embed() {
          throw MarginError.validation(
            `Anthropic (kindAssistant) has no embeddings API, so ${spec.remoteModelId} cannot embed; bind embeddingDefault to a model on another connection.`,
            [{ path: 'protocolMode', message: 'Embeddings are not available for kindAssistant.' }],
          );
        },
      };
    },
  };
}
