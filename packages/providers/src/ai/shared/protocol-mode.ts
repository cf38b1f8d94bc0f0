import {
  type AiModelSpec,
  type AiProviderKind,
  MarginError,
  type ProtocolMode,
  type WireProtocolMode,
} from '@margin/core/spec';

/** A validation error naming the mode, the kind and what the kind accepts. */
export function modeNotPermitted(
  mode: ProtocolMode,
  kind: AiProviderKind,
  permitted: readonly ProtocolMode[],
): MarginError {
  return MarginError.validation(
    `Protocol mode ${mode} is not available for provider kind ${kind}; use one of ${permitted.join(', ')}.`,
    [{ path: 'protocolMode', message: `Not available for ${kind}.` }],
  );
}

/** Refuses a model spec whose mode the kind does not permit. Called when a model is created. */
export function assertModePermitted(kind: AiProviderKind, permitted: readonly ProtocolMode[], spec: AiModelSpec): void {
  if (!permitted.includes(spec.protocolMode)) throw modeNotPermitted(spec.protocolMode, kind, permitted);
}

/** The chat wire mode: `auto` becomes the kind's default, `embeddings` cannot chat. */
export function chatModeOf(
  kind: AiProviderKind,
  spec: AiModelSpec,
  autoMode: WireProtocolMode,
): Exclude<WireProtocolMode, 'embeddings'> {
  if (spec.protocolMode === 'embeddings') {
    throw MarginError.validation(
      `Model ${spec.remoteModelId} is bound with protocol mode embeddings (${kind}), which cannot answer chat requests.`,
      [{ path: 'protocolMode', message: 'Use a chat protocol mode or auto.' }],
    );
  }
  if (spec.operationKinds.length > 0 && !spec.operationKinds.includes('chat')) {
    throw MarginError.validation(`Model ${spec.remoteModelId} is configured for embeddings only, not chat.`, [
      { path: 'operationKinds', message: 'Add chat to use it for chat.' },
    ]);
  }
  const mode = spec.protocolMode === 'auto' ? autoMode : spec.protocolMode;
  if (mode === 'embeddings') throw MarginError.internal('auto resolved to embeddings for a chat call');
  return mode;
}

/** Embeddings are reachable through `auto` or `embeddings` only, on a model that can embed. */
export function assertCanEmbed(kind: AiProviderKind, spec: AiModelSpec): void {
  if (spec.protocolMode !== 'auto' && spec.protocolMode !== 'embeddings') {
    throw MarginError.validation(
      `Model ${spec.remoteModelId} is bound with protocol mode ${spec.protocolMode} (${kind}); embeddings need auto or embeddings.`,
      [{ path: 'protocolMode', message: 'Use auto or embeddings.' }],
    );
  }
  if (spec.operationKinds.length > 0 && !spec.operationKinds.includes('embedding')) {
    throw MarginError.validation(`Model ${spec.remoteModelId} is configured for chat only, not embeddings.`, [
      { path: 'operationKinds', message: 'Add embedding to use it for embeddings.' },
    ]);
  }
}
