/**
 * The AI provider kinds: one `AiProviderKindV1` per spec kind, all sharing one egress-guarded
 * network (decisions.md, "Outbound egress guard") and the HTTP transport's retries.
 */
import type { AiProviderKindV1 } from '@margin/core/spec';
import { createAnthropicKind } from './anthropic/index.js';
import { createBedrockKind } from './bedrock/index.js';
import {
  type AzureManagedIdentityOptions,
  createAzureOpenAiKind,
  createLiteLlmProxyKind,
  createOpenAiCompatibleKind,
  createOpenAiKind,
} from './openai-wire/index.js';
import { type AiRuntime, type AiRuntimeOptions, createAiRuntime } from './shared/ai-runtime.js';
import { createVertexKind } from './vertex/index.js';

export interface AiProviderKindsOptions extends AiRuntimeOptions {
  /** Where `azureIdentity` profiles get their tokens; default the host's IMDS endpoint. */
  azureManagedIdentity?: AzureManagedIdentityOptions | undefined;
}

/** All seven kinds, in the spec's order: kindCloudA, kindDirect, kindProxy, kindCompatible, kindAssistant, kindCloudB, kindCloudC. */
export function createAiProviderKinds(options: AiProviderKindsOptions = {}): AiProviderKindV1[] {
  return builtInAiKinds(createAiRuntime(options), options.azureManagedIdentity);
}

/** The seven built-in kinds on a runtime the caller made (the registry shares it with plugins). */
export function builtInAiKinds(
  runtime: AiRuntime,
  azureManagedIdentity?: AzureManagedIdentityOptions | undefined,
): AiProviderKindV1[] {
  return [
    createAzureOpenAiKind(runtime, azureManagedIdentity),
    createOpenAiKind(runtime),
    createLiteLlmProxyKind(runtime),
    createOpenAiCompatibleKind(runtime),
    createAnthropicKind(runtime),
    createBedrockKind(runtime),
    createVertexKind(runtime),
  ];
}

export { ANTHROPIC_VERSION, createAnthropicKind } from './anthropic/index.js';
export { type BedrockAuth, bedrockAuthOf, createBedrockKind } from './bedrock/index.js';
export {
  type AzureManagedIdentityOptions,
  type AzureTokenProvider,
  createAzureOpenAiKind,
  createLiteLlmProxyKind,
  createOpenAiCompatibleKind,
  createOpenAiKind,
  IMDS_TOKEN_ENDPOINT,
} from './openai-wire/index.js';
export {
  type AiRuntime,
  type AiRuntimeOptions,
  createAiRuntime,
  DEFAULT_AI_TIMEOUT_MS,
} from './shared/ai-runtime.js';
export { createVertexKind, type GoogleAuth } from './vertex/index.js';
