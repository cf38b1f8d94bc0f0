import {
  type AiChatRequest,
  type AiChatResult,
  type AiModelSpec,
  type AiModelV1,
  type AiProtocolV1,
  MarginError,
} from '@margin/core/spec';
import { ACME, type AcmeClient } from './acme-client.js';

/** The kind's id: Acme's own, registered by the plugin next to the built-in kinds. */
export const ACME_KIND = 'kindAcme';

/** Acme's one wire protocol, `POST /generate`, under a mode of its own. */
export const ACME_GENERATE = 'acmeGenerate';

/**
 * What the kind speaks: one chat protocol and no embeddings. Core derives the rest from it: the
 * modes a profile may declare (`auto`, `acmeGenerate`), the modes a discovered model gets, and the
 * refusal of embedding models on these profiles.
 */
export const ACME_PROTOCOLS: readonly AiProtocolV1[] = [{ mode: ACME_GENERATE, operation: 'chat' }];

/** One Acme model as the `AiModelV1` port: chat through `/generate`, no embeddings. */
export function createAcmeModel(client: AcmeClient, spec: AiModelSpec): AiModelV1 {
  // `auto` has one thing to resolve to. Core only lets a profile declare modes the kind lists, so
  // anything else is a caller skipping those checks; verification also creates a model for every
  // declared mode first, and reports this refusal as a capability mismatch.
  if (spec.protocolMode !== 'auto' && spec.protocolMode !== ACME_GENERATE) {
    throw MarginError.validation(`${ACME} speaks ${ACME_GENERATE} (or auto), not ${spec.protocolMode}.`, [
      { path: 'protocolMode', message: `Use auto or ${ACME_GENERATE}.` },
    ]);
  }
  return {
    specificationVersion: 'v1',
    providerKind: ACME_KIND,
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
        protocolMode: ACME_GENERATE,
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
