import type { AiChatRequest, AiChatResult, AiEmbeddingResult, AiModelSpec, AiModelV1 } from '@margin/core/spec';
import type { JsonObject } from '../../utils/index.js';
import { assertCanEmbed, chatModeOf } from '../shared/protocol-mode.js';
import { tokenCounterFor } from '../shared/token-count.js';
import { sumUsage, usageOf } from '../shared/usage.js';
import { buildChatCompletionsBody, parseChatCompletionsBody } from './chat-completions.js';
import { buildEmbeddingsBody, EMBEDDING_BATCH, parseEmbeddingsBody } from './embeddings.js';
import type { OpenAiOperation, OpenAiWireTarget } from './openai-wire-target.js';
import { buildResponsesBody, parseResponsesBody } from './responses-api.js';

/** One model behind an OpenAI-style endpoint, speaking Responses, Chat Completions or Embeddings. */
export function createOpenAiWireModel(target: OpenAiWireTarget, spec: AiModelSpec): AiModelV1 {
  const post = async (operation: OpenAiOperation, body: JsonObject, signal: AbortSignal | undefined) => {
    const response = await target.transport.request({
      method: 'POST',
      url: target.url(operation, spec.remoteModelId),
      query: target.query(),
      headers: await target.headers(),
      json: body,
      signal,
    });
    return response.data;
  };

  return {
    specificationVersion: 'v1',
    providerKind: target.kind,
    remoteModelId: spec.remoteModelId,
    countTokens: tokenCounterFor(spec.remoteModelId),

    async chat(request: AiChatRequest): Promise<AiChatResult> {
      const mode = chatModeOf(target.kind, spec, target.autoChatMode);
      if (mode === 'responses') {
        const data = await post('responses', buildResponsesBody(spec.remoteModelId, request), request.signal);
        return parseResponsesBody(data, target.provider);
      }
      const body = buildChatCompletionsBody(spec.remoteModelId, request, { maxTokensField: target.maxTokensField });
      const data = await post('chatCompletions', body, request.signal);
      return parseChatCompletionsBody(data, target.provider);
    },

    async embed(texts: string[], options?: { signal?: AbortSignal | undefined }): Promise<AiEmbeddingResult> {
      assertCanEmbed(target.kind, spec);
      // text-embedding-ada-002 refuses `dimensions`; the text-embedding-3 family takes it.
      const dimensions =
        target.sendsEmbeddingDimensions && !/ada-002/i.test(spec.remoteModelId) ? spec.embeddingDimensions : undefined;
      const vectors: number[][] = [];
      const usages = [usageOf({})];
      for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
        const batch = texts.slice(start, start + EMBEDDING_BATCH);
        const data = await post(
          'embeddings',
          buildEmbeddingsBody(spec.remoteModelId, batch, dimensions),
          options?.signal,
        );
        const parsed = parseEmbeddingsBody(data, batch.length, target.provider);
        vectors.push(...parsed.vectors);
        usages.push(parsed.usage);
      }
      return { vectors, usage: sumUsage(usages) };
    },
  };
}
