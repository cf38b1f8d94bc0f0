import {
  type AiChatRequest,
  type AiChatResult,
  type AiModelSpec,
  type AiModelV1,
  MarginError,
  type ProtocolMode,
} from '@margin/core';
import { ACME, type AcmeClient } from './acme-client.js';

/**
 * Protocol modes are a fixed list in core. Acme has one chat protocol and no embeddings, so the kind
 * declares `chatCompletions` as the label for "Acme's /generate" and leaves `embeddings` out, which
 * makes core refuse embedding models on these profiles at save time.
 */
export const ACME_PROTOCOL_MODES: readonly ProtocolMode[] = ['auto', 'chatCompletions'];

/** One Acme model as the `AiModelV1` port: chat through `/generate`, no embeddings. */
export function createAcmeModel(client: AcmeClient, spec: AiModelSpec): AiModelV1 {
  // Verification creates a model for every declared mode first: refuse what Acme cannot serve.
  if (!ACME_PROTOCOL_MODES.includes(spec.protocolMode)) {
    throw MarginError.validation(`${ACME} speaks ${ACME_PROTOCOL_MODES.join(', ')}, not ${spec.protocolMode}.`, [
      { path: 'protocolMode', message: 'Use auto or chatCompletions.' },
    ]);
  }
  return {
    specificationVersion: 'v1',
    providerKind: 'kindCompatible',
    remoteModelId: spec.remoteModelId,
    async chat(request: AiChatRequest): Promise<AiChatResult> {
      // Callers send tools and native JSON schemas only to models configured with those abilities;
      // Acme has neither, so such a request is a configuration mistake worth a clear refusal.
      if (request.tools && request.tools.length > 0) throw unsupported('tool calls');
      if (request.responseFormat) throw unsupported('structured output');
      // `reasoningEffort` has no Acme equivalent and is left out.
      const answer = await client.generate(
        {
          model: spec.remoteModelId,
          prompt: promptOf(request),
          max_tokens: request.maxOutputTokens,
          temperature: request.temperature,
        },
        request.signal,
      );
      return {
        text: answer.output,
        toolCalls: [],
        finishReason: answer.stopReason === 'max_tokens' ? 'length' : 'stop',
        usage: {
          inputTokens: answer.inputTokens,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          outputTokens: answer.outputTokens,
          reasoningTokens: 0,
        },
        protocolMode: 'chatCompletions',
      };
    },
    async embed() {
      throw MarginError.validation(`${ACME} has no embeddings API.`, [
        { path: 'operationKinds', message: 'Acme models are chat models.' },
      ]);
    },
  };
}

/**
 * Acme takes one prompt string, so the conversation becomes a transcript ending with the turn the
 * model is to write.
 */
export function promptOf(request: AiChatRequest): string {
  const turns: string[] = [];
  if (request.system) turns.push(`System: ${request.system}`);
  for (const message of request.messages) {
    if (message.role === 'user') turns.push(`User: ${message.content}`);
    else if (message.role === 'assistant') turns.push(`Assistant: ${message.content}`);
    else turns.push(`Tool result (${message.toolName}): ${message.content}`);
  }
  turns.push('Assistant:');
  return turns.join('\n\n');
}

function unsupported(what: string): MarginError {
  return MarginError.validation(`${ACME} does not support ${what}.`);
}
