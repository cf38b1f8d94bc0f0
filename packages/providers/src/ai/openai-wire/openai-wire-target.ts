import type { AiProviderKind } from '@margin/core/spec';
import type { HttpTransport } from '../../utils/index.js';

export type OpenAiOperation = 'responses' | 'chatCompletions' | 'embeddings' | 'models';

/**
 * Where and how one OpenAI-style kind is called: the part that differs between OpenAI, Azure
 * OpenAI, LiteLLM and generic compatible servers. The wire shapes themselves are shared.
 */
export interface OpenAiWireTarget {
  readonly kind: AiProviderKind;
  /** Vendor name for messages. */
  readonly provider: string;
  readonly transport: HttpTransport;
  /** `auto` for chat becomes this. */
  readonly autoChatMode: 'responses' | 'chatCompletions';
  readonly maxTokensField: 'max_completion_tokens' | 'max_tokens';
  /** Whether to send `dimensions` for embeddings when the model declares them. */
  readonly sendsEmbeddingDimensions: boolean;
  url(operation: OpenAiOperation, model: string): string;
  /** Query parameters for every call: the profile's, plus e.g. Azure's `api-version`. */
  query(): Record<string, string>;
  /** Auth and default headers; async because a managed-identity token may need fetching. */
  headers(): Promise<Record<string, string>>;
}
