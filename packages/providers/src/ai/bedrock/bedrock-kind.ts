import {
  type AiConnectionConfig,
  type AiEmbeddingResult,
  type AiModelSpec,
  type AiModelV1,
  type AiProtocolV1,
  type AiProviderKindV1,
  type AiUsage,
  type DiscoveredModel,
  MarginError,
  modesOf,
} from '@margin/core/spec';
import { type HttpTransport, type JsonObject, joinUrl, type TransportResponse } from '../../utils/index.js';
import type { AiRuntime } from '../shared/ai-runtime.js';
import { discoverWith, discoverySucceeded } from '../shared/discovery.js';
import { BEDROCK_MODELS } from '../shared/known-models.js';
import { probeWith } from '../shared/probe-outcome.js';
import { assertCanEmbed, assertModePermitted, chatModeOf } from '../shared/protocol-mode.js';
import { estimateTokens } from '../shared/token-count.js';
import { sumUsage, usageOf } from '../shared/usage.js';
import {
  BEDROCK_SETTINGS,
  type BedrockConnection,
  type BedrockSettings,
  bedrockConnectionOf,
} from './bedrock-connection.js';
import { buildConverseBody, parseConverseBody } from './bedrock-converse.js';
import { readFoundationModels, readInferenceProfiles } from './bedrock-discovery.js';
import {
  COHERE_BATCH,
  cohereBody,
  embeddingFamilyOf,
  parseCohere,
  parseTitan,
  titanBody,
} from './bedrock-embeddings.js';
import { inspectBedrockError } from './bedrock-errors.js';
import { signSigV4 } from './sigv4.js';

export const BEDROCK_PROTOCOLS: readonly AiProtocolV1[] = [
  { mode: 'converseApi', operation: 'chat' },
  { mode: 'embeddings', operation: 'embedding' },
];
const MAX_PROFILE_PAGES = 10;

interface BedrockCall {
  method: 'GET' | 'POST';
  url: string;
  query?: Record<string, string | undefined> | undefined;
  json?: JsonObject | undefined;
  signal?: AbortSignal | undefined;
}

/** Sends one call, signed with SigV4 or carrying the Bedrock API key. */
function bedrockClient(runtime: AiRuntime, connection: BedrockConnection) {
  const transport: HttpTransport = runtime.transport({
    provider: 'AWS Bedrock',
    secrets: () => connection.secrets,
    inspectError: inspectBedrockError,
  });
  return async <T>(call: BedrockCall): Promise<TransportResponse<T>> => {
    // The URL is final before signing: SigV4 covers the exact path and query sent.
    const url = new URL(call.url);
    for (const [key, value] of Object.entries({ ...connection.query, ...call.query })) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    const body = call.json === undefined ? '' : JSON.stringify(call.json);
    const headers: Record<string, string> = {
      ...connection.headers,
      accept: 'application/json',
      ...(call.json === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const auth =
      connection.auth.kind === 'apiKey'
        ? { authorization: `Bearer ${connection.auth.key}` }
        : signSigV4({
            method: call.method,
            url,
            headers,
            body,
            credentials: connection.auth.credentials,
            region: connection.region,
            service: 'bedrock',
            now: new Date(runtime.now()),
          });
    return transport.request<T>({
      method: call.method,
      url,
      headers: { ...headers, ...auth },
      body: call.json === undefined ? undefined : body,
      signal: call.signal,
    });
  };
}

/**
 * `kindCloudB`: AWS Bedrock. Chat over Converse, embeddings over InvokeModel (Titan, Cohere),
 * discovery from ListFoundationModels + ListInferenceProfiles on the control-plane host. The key
 * is either `ACCESS_KEY_ID:SECRET[:SESSION_TOKEN]` (SigV4) or a Bedrock API key (Bearer).
 */
export function createBedrockKind(runtime: AiRuntime): AiProviderKindV1<BedrockSettings> {
  const discover = async (connection: BedrockConnection) => {
    const send = bedrockClient(runtime, connection);
    const foundation = readFoundationModels(
      (await send<unknown>({ method: 'GET', url: joinUrl(connection.controlRoot, 'foundation-models') })).data,
    );
    const models: DiscoveredModel[] = [...foundation.models];
    const warnings: string[] = [];
    try {
      let nextToken: string | undefined;
      for (let page = 0; page < MAX_PROFILE_PAGES; page++) {
        const response = await send<unknown>({
          method: 'GET',
          url: joinUrl(connection.controlRoot, 'inference-profiles'),
          query: { maxResults: '1000', nextToken },
        });
        const read = readInferenceProfiles(response.data, foundation.kindsById);
        models.push(...read.models);
        nextToken = read.nextToken;
        if (!nextToken) break;
      }
    } catch (error) {
      if (!MarginError.isInstance(error)) throw error;
      warnings.push(
        `Inference profiles could not be listed (${error.message}); models that Bedrock serves only through a profile are missing.`,
      );
    }
    return discoverySucceeded(models, warnings);
  };

  return {
    specificationVersion: 'v1',
    kind: 'kindCloudB',
    displayName: 'Amazon Bedrock',
    protocols: BEDROCK_PROTOCOLS,
    supportsDiscovery: true,
    defaultEndpoint: 'https://bedrock-runtime.<region>.amazonaws.com',
    requiresApiKey: true,
    knownModels: BEDROCK_MODELS,
    settings: BEDROCK_SETTINGS,
    async probe(config) {
      const connection = bedrockConnectionOf(config);
      const send = bedrockClient(runtime, connection);
      return probeWith(async () => {
        await send({
          method: 'GET',
          url: joinUrl(connection.controlRoot, 'inference-profiles'),
          query: { maxResults: '1' },
        });
        const how = connection.auth.kind === 'sigv4' ? 'the signed access key' : 'the Bedrock API key';
        return { summary: `AWS Bedrock in ${connection.region} accepted ${how}.` };
      });
    },
    async discoverModels(config) {
      const connection = bedrockConnectionOf(config);
      return discoverWith(() => discover(connection));
    },
    createModel(config: AiConnectionConfig<BedrockSettings>, spec: AiModelSpec): AiModelV1 {
      assertModePermitted('kindCloudB', modesOf({ protocols: BEDROCK_PROTOCOLS }), spec);
      const connection = bedrockConnectionOf(config);
      const send = bedrockClient(runtime, connection);
      const modelUrl = (action: 'converse' | 'invoke') =>
        joinUrl(connection.runtimeRoot, 'model', encodeURIComponent(spec.remoteModelId), action);

      const embed = async (texts: string[], signal: AbortSignal | undefined): Promise<AiEmbeddingResult> => {
        assertCanEmbed('kindCloudB', spec);
        const family = embeddingFamilyOf(spec.remoteModelId);
        const vectors: number[][] = [];
        const usages: AiUsage[] = [usageOf({})];
        if (family === 'cohere') {
          for (let start = 0; start < texts.length; start += COHERE_BATCH) {
            const batch = texts.slice(start, start + COHERE_BATCH);
            const response = await send<unknown>({
              method: 'POST',
              url: modelUrl('invoke'),
              json: cohereBody(batch),
              signal,
            });
            const parsed = parseCohere(
              response.data,
              batch.length,
              response.headers.get('x-amzn-bedrock-input-token-count'),
            );
            vectors.push(...parsed.vectors);
            usages.push(parsed.usage);
          }
        } else {
          for (const text of texts) {
            const body = titanBody(text, family, spec.embeddingDimensions);
            const response = await send<unknown>({ method: 'POST', url: modelUrl('invoke'), json: body, signal });
            const parsed = parseTitan(response.data);
            vectors.push(parsed.vector);
            const header = Number(response.headers.get('x-amzn-bedrock-input-token-count') ?? 0);
            usages.push(parsed.usage.inputTokens > 0 ? parsed.usage : usageOf({ inputTokens: header }));
          }
        }
        return { vectors, usage: sumUsage(usages) };
      };

      return {
        specificationVersion: 'v1',
        providerKind: 'kindCloudB',
        remoteModelId: spec.remoteModelId,
        // No local tokenizer for these vendors' models: the engine budgets with the estimate.
        countTokens: estimateTokens,
        async chat(request) {
          chatModeOf('kindCloudB', spec, 'converseApi');
          const call = buildConverseBody(request, { nativeStructuredOutput: spec.supportsStructuredOutput });
          const response = await send<unknown>({
            method: 'POST',
            url: modelUrl('converse'),
            json: call.body,
            signal: request.signal,
          });
          return parseConverseBody(response.data, call.answerTool);
        },
        embed: (texts, options) => embed(texts, options?.signal),
      };
    },
  };
}
