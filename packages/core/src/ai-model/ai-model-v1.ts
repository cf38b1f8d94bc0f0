/**
 * The AI port. One `AiProviderKindV1` per provider kind knows that vendor's endpoints and auth, can
 * probe a connection and discover its models, and creates `AiModelV1` instances that speak one
 * protocol mode. Adapters live in `@margin/providers`.
 *
 * Failures are `MarginError`s with code `provider_unavailable` and a `providerFailure` detail
 * (`credentials`, `rateLimited`, `quotaExceeded`, ...). Messages never carry credentials.
 */
import type { z } from 'zod';

/** The kinds Margin ships (the spec's wire values); plugins register others. */
export const BUILT_IN_AI_PROVIDER_KINDS = [
  'kindCloudA',
  'kindDirect',
  'kindProxy',
  'kindCompatible',
  'kindAssistant',
  'kindCloudB',
  'kindCloudC',
] as const;
export type BuiltInAiProviderKind = (typeof BUILT_IN_AI_PROVIDER_KINDS)[number];
/** An AI provider kind id: a built-in one, or one a registered `AiProviderKindV1` declares. */
export type AiProviderKind = BuiltInAiProviderKind | (string & {});

/** `auto` and the wire protocols of the built-in kinds; a plugin's kind may declare its own. */
export const BUILT_IN_PROTOCOL_MODES = [
  'auto',
  'responses',
  'chatCompletions',
  'embeddings',
  'messagesApi',
  'converseApi',
  'generateContentApi',
] as const;
export type BuiltInProtocolMode = (typeof BUILT_IN_PROTOCOL_MODES)[number];
export type ProtocolMode = BuiltInProtocolMode | (string & {});
/** A mode after `auto` has been resolved for a concrete call. */
export type WireProtocolMode = Exclude<ProtocolMode, 'auto'>;

export const REASONING_EFFORTS = ['none', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export type AiAuth = { mode: 'apiKey'; apiKey: string } | { mode: 'azureIdentity' };

/** What a kind's settings parse to: each setting a string, absent when the profile does not set it. */
export type AiKindSettings = Readonly<Record<string, string | undefined>>;

/**
 * How a kind declares its settings: a zod object schema whose keys are the setting keys and whose
 * fields each check one string. A profile has no field of its own for them, so they ride in its
 * `defaultQueryParams` (the spec's wire field: `region` for kindCloudB, `project` for kindCloudC);
 * every other entry there is a real query parameter.
 */
export type AiSettingsSchemaV1<TSettings extends AiKindSettings = AiKindSettings> = z.ZodObject & z.ZodType<TSettings>;

/** A connection as stored and sent on the wire: the kind's settings still among its `defaultQueryParams`. */
export interface AiConnectionProfile {
  providerKind: AiProviderKind;
  baseUrl: string;
  auth: AiAuth;
  defaultHeaders: Readonly<Record<string, string>>;
  defaultQueryParams: Readonly<Record<string, string>>;
}

/**
 * A profile with its credential opened, as an adapter needs it. Core builds it
 * (`aiConnectionConfigOf`): the kind's settings parsed out of `defaultQueryParams` into `settings`.
 */
export interface AiConnectionConfig<TSettings extends AiKindSettings = AiKindSettings> extends AiConnectionProfile {
  /** The query parameters for every call: the profile's `defaultQueryParams` without the kind's settings. */
  defaultQueryParams: Readonly<Record<string, string>>;
  /** The kind's settings as its `settings` schema parsed them; `{}` for a kind that declares none. */
  settings: TSettings;
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
  /** The tenant's AI policy does not permit the connection's provider kind or host. */
  | 'policy'
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

/** One wire protocol a kind speaks, and what it is for. */
export interface AiProtocolV1 {
  readonly mode: WireProtocolMode;
  readonly operation: 'chat' | 'embedding';
}

/** A well-known model of a kind, with list prices (USD per million tokens), for the model catalog. */
export interface KnownModelV1 {
  remoteModelId: string;
  displayName: string;
  operationKinds: ReadonlyArray<'chat' | 'embedding'>;
  maxContextTokens?: number;
  tokenizerName?: string;
  maxInputTokens?: number;
  embeddingDimensions?: number;
  supportsStructuredOutput: boolean;
  supportsToolUse: boolean;
  inputCostPer1MUsd?: number;
  outputCostPer1MUsd?: number;
  cachedInputCostPer1MUsd?: number;
}

/**
 * An AI provider kind as an adapter registers it: its facts (core checks profiles, endpoints and
 * keys against them) and its behaviour. An adapter with settings names their type,
 * `AiProviderKindV1<{ region?: string }>`, and reads `connection.settings.region`; registries hold
 * plain `AiProviderKindV1`s.
 */
export interface AiProviderKindV1<TSettings extends AiKindSettings = AiKindSettings> {
  readonly specificationVersion: 'v1';
  /** The wire value (`kindDirect`); for a plugin, its own id (`kindAcme`), matching `REGISTERED_ID_PATTERN`. */
  readonly kind: AiProviderKind;
  /** How people call it, for messages and the console (`OpenAI`). */
  readonly displayName: string;
  /** The wire protocols it speaks; a profile may declare these and `auto`. */
  readonly protocols: readonly AiProtocolV1[];
  /** Whether this kind can list models at all; otherwise discovery is `manualOnly`. */
  readonly supportsDiscovery: boolean;
  /** Where a profile that leaves `baseUrl` empty goes (the vendor's public endpoint, as text); without one `baseUrl` is required. */
  readonly defaultEndpoint?: string | undefined;
  /** False only for servers that may run without a key (a local OpenAI-compatible server). */
  readonly requiresApiKey: boolean;
  /**
   * Offered when the kind can authenticate with the host's managed identity (`auth.mode:
   * azureIdentity`): the hosts the identity's token may be sent to, and how to say so.
   */
  readonly managedIdentity?: { readonly hosts: RegExp; readonly hostsDescription: string } | undefined;
  /** Models the catalog lists for this kind out of the box. */
  readonly knownModels?: readonly KnownModelV1[] | undefined;
  /**
   * The settings it reads from a profile's `defaultQueryParams` (keys matching `REGISTERED_ID_PATTERN`).
   * Core refuses a profile whose settings fail it (400 at `defaultQueryParams.<key>`, the schema's
   * message) before the adapter is called, and hands the adapter them parsed in `connection.settings`.
   * Rules across fields (a region or a regional host) stay the adapter's.
   */
  readonly settings?: AiSettingsSchemaV1<TSettings> | undefined;
  probe(connection: AiConnectionConfig<TSettings>): Promise<AiProbeResult>;
  discoverModels(connection: AiConnectionConfig<TSettings>): Promise<AiDiscoveryResult>;
  /** Resolves `auto` to a wire mode for this kind and model. */
  createModel(connection: AiConnectionConfig<TSettings>, model: AiModelSpec): AiModelV1;
}
