/**
 * The AI port. One `AiProviderKindV1` per provider kind knows that vendor's endpoints and auth, can
 * probe a connection and discover its models, and creates `AiModelV1` instances that speak one
 * protocol mode. Adapters live in `@margin/providers`.
 *
 * Failures are `MarginError`s with code `provider_unavailable` and a `providerFailure` detail
 * (`credentials`, `rateLimited`, `quotaExceeded`, ...). Messages never carry credentials.
 */

export const AI_PROVIDER_KINDS = [
  'kindCloudA',
  'kindDirect',
  'kindProxy',
  'kindCompatible',
  'kindAssistant',
  'kindCloudB',
  'kindCloudC',
] as const;
export type AiProviderKind = (typeof AI_PROVIDER_KINDS)[number];

export const PROTOCOL_MODES = [
  'auto',
  'responses',
  'chatCompletions',
  'embeddings',
  'messagesApi',
  'converseApi',
  'generateContentApi',
] as const;
export type ProtocolMode = (typeof PROTOCOL_MODES)[number];
/** A mode after `auto` has been resolved for a concrete call. */
export type WireProtocolMode = Exclude<ProtocolMode, 'auto'>;

export const REASONING_EFFORTS = ['none', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export type AiAuth = { mode: 'apiKey'; apiKey: string } | { mode: 'azureIdentity' };

/** A stored AI connection profile with its credential opened, as an adapter needs it. */
export interface AiConnectionConfig {
  providerKind: AiProviderKind;
  baseUrl: string;
  auth: AiAuth;
  defaultHeaders: Readonly<Record<string, string>>;
  /** Also carries provider settings: `region` (kindCloudB), `project` (kindCloudC). */
  defaultQueryParams: Readonly<Record<string, string>>;
}

export interface AiToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface AiToolCall {
  id: string;
  name: string;
  /** Parsed arguments; adapters parse the vendor's JSON string. */
  arguments: unknown;
}

export type AiMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: AiToolCall[] | undefined }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string };

/**
 * Whether and which tool the model must call: `auto` (the default when tools are given), `required`
 * (some tool), `none`, or one named tool — how a forced `report_findings` call gets structured output
 * from models without a JSON mode (Anthropic, Bedrock, Vertex).
 */
export type AiToolChoice = 'auto' | 'required' | 'none' | { name: string };

export interface AiResponseFormat {
  /** A short identifier for the schema, e.g. `review_findings`. */
  name: string;
  /** JSON Schema (draft 2020-12 subset accepted by the vendors' structured-output modes). */
  schema: Record<string, unknown>;
}

export interface AiChatRequest {
  /** System instructions, sent the way the protocol expects them. */
  system?: string | undefined;
  messages: AiMessage[];
  tools?: AiToolDefinition[] | undefined;
  /** Only meaningful with `tools`; default `auto`. */
  toolChoice?: AiToolChoice | undefined;
  /**
   * Ask for JSON matching the schema using the vendor's native structured output. Callers only set
   * it for models configured with `supportsStructuredOutput`; otherwise they instruct and validate.
   */
  responseFormat?: AiResponseFormat | undefined;
  temperature?: number | undefined;
  reasoningEffort?: ReasoningEffort | undefined;
  maxOutputTokens?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** Token counts normalised across vendors. `inputTokens` excludes cached input. */
export interface AiUsage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  /** Part of `outputTokens`, reported separately where the vendor does. */
  reasoningTokens: number;
}

export type AiFinishReason = 'stop' | 'length' | 'toolCalls' | 'contentFilter' | 'other';

export interface AiChatResult {
  text: string;
  toolCalls: AiToolCall[];
  finishReason: AiFinishReason;
  usage: AiUsage;
  /** The protocol mode actually used. */
  protocolMode: WireProtocolMode;
}

export interface AiEmbeddingResult {
  vectors: number[][];
  usage: AiUsage;
}

/** Tokens a text takes for a model, counted locally before anything is sent. */
export interface TokenCount {
  tokens: number;
  /** True when the model's own tokenizer counted; false for an estimate (characters ÷ 3.5, rounded up). */
  exact: boolean;
}

/**
 * The AI port's model. A call that does not fit the model's context window fails with
 * `MarginError.provider('contextLengthExceeded', ...)`, so the caller can split the input and try
 * again instead of failing the work.
 */
export interface AiModelV1 {
  readonly specificationVersion: 'v1';
  readonly providerKind: AiProviderKind;
  readonly remoteModelId: string;
  chat(request: AiChatRequest): Promise<AiChatResult>;
  embed(texts: string[], options?: { signal?: AbortSignal | undefined }): Promise<AiEmbeddingResult>;
  /**
   * Counts locally: exact where the model's tokenizer is known (OpenAI's o200k/cl100k families),
   * otherwise an estimate flagged `exact: false`. Optional; callers estimate when it is missing.
   */
  countTokens?(text: string): TokenCount;
}

export interface AiModelSpec {
  remoteModelId: string;
  protocolMode: ProtocolMode;
  operationKinds: ReadonlyArray<'chat' | 'embedding'>;
  supportsStructuredOutput: boolean;
  supportsToolUse: boolean;
  embeddingDimensions?: number | undefined;
}

export type AiFailureCategory =
  | 'credentials'
  | 'endpointReachability'
  | 'authorization'
  | 'providerRejected'
  | 'capabilityMismatch'
  | 'unknown';

export interface AiProbeResult {
  status: 'succeeded' | 'failed';
  failureCategory?: AiFailureCategory | undefined;
  summary: string;
  warnings: string[];
}

export interface DiscoveredModel {
  remoteModelId: string;
  displayName?: string | undefined;
  operationKinds?: Array<'chat' | 'embedding'> | undefined;
  maxContextTokens?: number | undefined;
  maxInputTokens?: number | undefined;
  embeddingDimensions?: number | undefined;
  supportsToolUse?: boolean | undefined;
  supportsStructuredOutput?: boolean | undefined;
  inputCostPer1MUsd?: number | undefined;
  outputCostPer1MUsd?: number | undefined;
  cachedInputCostPer1MUsd?: number | undefined;
}

export interface AiDiscoveryResult {
  discoveryStatus: 'succeeded' | 'failed';
  /** False never happens today, but a kind may require discovered models in future. */
  manualEntryAllowed: boolean;
  warnings: string[];
  models: DiscoveredModel[];
}

export interface AiProviderKindV1 {
  readonly specificationVersion: 'v1';
  readonly kind: AiProviderKind;
  /** Modes a profile of this kind may declare, `auto` included. */
  readonly protocolModes: readonly ProtocolMode[];
  /** Whether this kind can list models at all; otherwise discovery is `manualOnly`. */
  readonly supportsDiscovery: boolean;
  probe(connection: AiConnectionConfig): Promise<AiProbeResult>;
  discoverModels(connection: AiConnectionConfig): Promise<AiDiscoveryResult>;
  /** Resolves `auto` to a wire mode for this kind and model. */
  createModel(connection: AiConnectionConfig, model: AiModelSpec): AiModelV1;
}
