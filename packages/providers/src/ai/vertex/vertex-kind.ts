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
import {
  createTokenCache,
  type HttpTransport,
  type JsonObject,
  joinUrl,
  readArray,
  readNumber,
  readObject,
  readString,
  type TransportResponse,
} from '../../utils/index.js';
import type { AiRuntime } from '../shared/ai-runtime.js';
import { discoverWith, discoverySucceeded, operationKindsFromId } from '../shared/discovery.js';
import { GEMINI_MODELS } from '../shared/known-models.js';
import { probeWith } from '../shared/probe-outcome.js';
import { assertCanEmbed, assertModePermitted, chatModeOf } from '../shared/protocol-mode.js';
import { estimateTokens } from '../shared/token-count.js';
import { sumUsage, usageOf } from '../shared/usage.js';
import { buildGenerateContentBody, parseGenerateContentBody } from './gemini-generate-content.js';
import { inspectGoogleError } from './google-errors.js';
import { exchangeServiceAccountToken } from './google-service-account.js';
import {
  bareModelId,
  modelMethodUrl,
  VERTEX_SETTINGS,
  type VertexConnection,
  type VertexSettings,
  vertexConnectionOf,
} from './vertex-connection.js';
import {
  BATCH_EMBED_LIMIT,
  batchEmbedBody,
  embedContentBody,
  PREDICT_BATCH,
  parseBatchEmbed,
  parseEmbedContent,
  parsePredict,
  predictBody,
} from './vertex-embeddings.js';

export const VERTEX_PROTOCOLS: readonly AiProtocolV1[] = [
  { mode: 'generateContentApi', operation: 'chat' },
  { mode: 'embeddings', operation: 'embedding' },
];
const MAX_MODEL_PAGES = 10;
/** Publisher models that are not text chat or embedding models. */
const NOT_TEXT = /(imagen|veo|image|tts|audio|live|lyria|chirp)/i;

interface GoogleCall {
  method: 'GET' | 'POST';
  url: string;
  query?: Record<string, string | number | undefined> | undefined;
  json?: JsonObject | undefined;
  signal?: AbortSignal | undefined;
}

/**
 * `kindCloudC`: Google Vertex AI (and the Gemini Developer API by its host). Chat over
 * `generateContent`, embeddings over `:predict` / `:embedContent` / `:batchEmbedContents`, auth by
 * API key or by a service-account key exchanged for an OAuth token (cached until near expiry).
 */
export function createVertexKind(runtime: AiRuntime): AiProviderKindV1<VertexSettings> {
  const tokens = createTokenCache({ now: runtime.now });

  const client = (connection: VertexConnection) => {
    let lastToken = '';
    const transport: HttpTransport = runtime.transport({
      provider: connection.flavor === 'geminiApi' ? 'Google Gemini' : 'Google Vertex AI',
      secrets: () => [...connection.secrets, lastToken],
      inspectError: inspectGoogleError,
    });
    const oauth: HttpTransport = runtime.transport({
      provider: 'The Google token endpoint',
      secrets: () => [...connection.secrets, lastToken],
      inspectError: inspectGoogleError,
    });
    const authHeaders = async (): Promise<Record<string, string>> => {
      const auth = connection.auth;
      if (auth.kind === 'apiKey') return { 'x-goog-api-key': auth.key };
      lastToken = await tokens.get(`${auth.account.clientEmail}|${auth.account.tokenUri}`, () =>
        exchangeServiceAccountToken(oauth, auth.account, runtime.now()),
      );
      return { authorization: `Bearer ${lastToken}` };
    };
    return async <T>(call: GoogleCall): Promise<TransportResponse<T>> =>
      transport.request<T>({
        method: call.method,
        url: call.url,
        query: { ...connection.query, ...call.query },
        headers: { ...connection.headers, ...(await authHeaders()) },
        json: call.json,
        signal: call.signal,
      });
  };

  const listModels = async (connection: VertexConnection, pageSize: number, pages: number) => {
    const send = client(connection);
    const models: DiscoveredModel[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < pages; page++) {
      if (connection.flavor === 'geminiApi') {
        const response = await send<unknown>({
          method: 'GET',
          url: joinUrl(connection.root, 'v1beta/models'),
          query: { pageSize, pageToken },
        });
        const body = readObject(response.data);
        if (!Array.isArray(body?.models)) throw unexpected('model list');
        models.push(...readGeminiModels(body.models));
        pageToken = readString(body.nextPageToken);
      } else {
        const response = await send<unknown>({
          method: 'GET',
          url: joinUrl(connection.root, 'v1beta1/publishers/google/models'),
          query: { pageSize, pageToken },
        });
        const body = readObject(response.data);
        if (!Array.isArray(body?.publisherModels)) throw unexpected('publisher-model list');
        models.push(...readPublisherModels(body.publisherModels));
        pageToken = readString(body.nextPageToken);
      }
      if (!pageToken) break;
    }
    return models;
  };

  return {
    specificationVersion: 'v1',
    kind: 'kindCloudC',
    displayName: 'Google Vertex AI / Gemini',
    protocols: VERTEX_PROTOCOLS,
    supportsDiscovery: true,
    defaultEndpoint: 'https://aiplatform.googleapis.com (Vertex AI) or the Gemini API',
    requiresApiKey: true,
    knownModels: GEMINI_MODELS,
    settings: VERTEX_SETTINGS,
    async probe(config) {
      const connection = vertexConnectionOf(config);
      const warnings =
        connection.flavor === 'vertex' && !connection.project
          ? ['No project is set, so calls use Vertex AI express-mode URLs (API key without a project).']
          : [];
      return probeWith(async () => {
        await listModels(connection, 1, 1);
        const where =
          connection.flavor === 'geminiApi'
            ? 'The Gemini API'
            : `Vertex AI (${connection.project ? `project ${connection.project}, ` : ''}location ${connection.location})`;
        const how = connection.auth.kind === 'serviceAccount' ? 'the service-account token' : 'the API key';
        return { summary: `${where} accepted ${how}.` };
      }, warnings);
    },
    async discoverModels(config) {
      const connection = vertexConnectionOf(config);
      return discoverWith(async () => discoverySucceeded(await listModels(connection, 100, MAX_MODEL_PAGES)));
    },
    createModel(config: AiConnectionConfig<VertexSettings>, spec: AiModelSpec): AiModelV1 {
      assertModePermitted('kindCloudC', modesOf({ protocols: VERTEX_PROTOCOLS }), spec);
      const connection = vertexConnectionOf(config);
      const send = client(connection);
      const provider = connection.flavor === 'geminiApi' ? 'Google Gemini' : 'Google Vertex AI';
      const url = (method: string) => modelMethodUrl(connection, spec.remoteModelId, method);

      const embed = async (texts: string[], signal: AbortSignal | undefined): Promise<AiEmbeddingResult> => {
        assertCanEmbed('kindCloudC', spec);
        const dims = spec.embeddingDimensions;
        const vectors: number[][] = [];
        const usages: AiUsage[] = [usageOf({})];
        if (connection.flavor === 'geminiApi') {
          for (let start = 0; start < texts.length; start += BATCH_EMBED_LIMIT) {
            const batch = texts.slice(start, start + BATCH_EMBED_LIMIT);
            const body = batchEmbedBody(bareModelId(spec.remoteModelId), batch, dims);
            const response = await send<unknown>({
              method: 'POST',
              url: url('batchEmbedContents'),
              json: body,
              signal,
            });
            vectors.push(...parseBatchEmbed(response.data, batch.length));
          }
        } else if (/gemini-embedding/i.test(spec.remoteModelId)) {
          for (const text of texts) {
            const body = embedContentBody(text, dims);
            const response = await send<unknown>({ method: 'POST', url: url('embedContent'), json: body, signal });
            const parsed = parseEmbedContent(response.data);
            vectors.push(parsed.vector);
            usages.push(parsed.usage);
          }
        } else {
          for (let start = 0; start < texts.length; start += PREDICT_BATCH) {
            const batch = texts.slice(start, start + PREDICT_BATCH);
            const response = await send<unknown>({
              method: 'POST',
              url: url('predict'),
              json: predictBody(batch, dims),
              signal,
            });
            const parsed = parsePredict(response.data, batch.length);
            vectors.push(...parsed.vectors);
            usages.push(parsed.usage);
          }
        }
        return { vectors, usage: sumUsage(usages) };
      };

      return {
        specificationVersion: 'v1',
        providerKind: 'kindCloudC',
        remoteModelId: spec.remoteModelId,
        // No local tokenizer for these vendors' models: the engine budgets with the estimate.
        countTokens: estimateTokens,
        async chat(request) {
          chatModeOf('kindCloudC', spec, 'generateContentApi');
          const response = await send<unknown>({
            method: 'POST',
            url: url('generateContent'),
            json: buildGenerateContentBody(request),
            signal: request.signal,
          });
          return parseGenerateContentBody(response.data, provider);
        },
        embed: (texts, options) => embed(texts, options?.signal),
      };
    },
  };
}

function unexpected(what: string): MarginError {
  return MarginError.provider('invalidResponse', `Google answered the ${what} in an unexpected shape.`);
}

/** Vertex `publisherModels[]{name: "publishers/google/models/…"}`: no limits, kinds from the id. */
function readPublisherModels(entries: unknown[]): DiscoveredModel[] {
  const models: DiscoveredModel[] = [];
  for (const entry of entries.map((item) => readObject(item))) {
    const id = bareModelId(readString(entry?.name) ?? '');
    if (!id || !/(gemini|embedding)/i.test(id) || NOT_TEXT.test(id)) continue;
    models.push({ remoteModelId: id, operationKinds: operationKindsFromId(id) });
  }
  return models;
}

/** Gemini API `models[]` with limits and supported methods. */
function readGeminiModels(entries: unknown[]): DiscoveredModel[] {
  const models: DiscoveredModel[] = [];
  for (const entry of entries.map((item) => readObject(item))) {
    const id = bareModelId(readString(entry?.name) ?? '');
    const methods = readArray(entry?.supportedGenerationMethods);
    const kinds: Array<'chat' | 'embedding'> = [];
    if (methods.includes('generateContent')) kinds.push('chat');
    if (methods.includes('embedContent') || methods.includes('batchEmbedContents')) kinds.push('embedding');
    if (!id || kinds.length === 0 || NOT_TEXT.test(id)) continue;
    const embedding = kinds.includes('embedding') && !kinds.includes('chat');
    models.push({
      remoteModelId: id,
      displayName: readString(entry?.displayName),
      operationKinds: kinds,
      maxContextTokens: embedding ? undefined : readNumber(entry?.inputTokenLimit),
      maxInputTokens: embedding ? readNumber(entry?.inputTokenLimit) : undefined,
    });
  }
  return models;
}
