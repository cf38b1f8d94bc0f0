import type { AiModelV1, AiProviderKind, AiProviderKindV1, ModelPrices } from '../ai-model/index.js';
import { aiConnectionConfigOf } from '../ai-model/index.js';
import { MarginError, randomIds, type ValidationIssue } from '../kernel/index.js';
import { checkProfile, narrowAutoMode } from './profile-rules.js';

export interface ModelBindingInput {
  /** The installation's AI provider kinds (`createProviderRegistry(...).ai`). */
  kinds: readonly AiProviderKindV1[];
  providerKind: AiProviderKind;
  /** Empty for kinds with a public default endpoint. */
  baseUrl: string;
  remoteModelId: string;
  /** Absent: no key (only `kindCompatible` servers may be called so). */
  apiKey?: string | undefined;
  /**
   * What a connection's `defaultQueryParams` holds: the kind's settings (`region`, `project`,
   * `location`, a plugin's own), checked against its schema, and any real query parameters.
   */
  settings?: Readonly<Record<string, string>> | undefined;
  /** `MARGIN_ALLOW_PRIVATE_EGRESS`: must match the one the kinds were created with. */
  allowPrivateEgress: boolean;
}

/** What a review needs to know of the bound model besides the model itself. */
export interface BoundModelTraits {
  connectionId: string;
  supportsStructuredOutput: boolean;
  supportsToolUse: boolean;
  maxContextTokens: number | null;
  prices: ModelPrices;
}

export interface ModelBinding {
  model: AiModelV1;
  /** Hand both to the review engine's `reviewModelsOf(model, traits)`. */
  traits: BoundModelTraits;
}

/**
 * A review model named by settings instead of a stored connection, checked and built exactly as
 * the service checks and builds a connection's model: the same endpoint, key and egress rules
 * (`checkProfile`), the same protocol choice, the kind's own `createModel`. A model of the built-in
 * catalog brings its context window, prices and structured-output support; any other is asked in
 * text mode with the default window. Refusals are `validation_failed` with `details` naming the field.
 */
export function bindReviewModel(input: ModelBindingInput): ModelBinding {
  const kind = input.kinds.find((k) => k.kind === input.providerKind);
  const known = kind?.knownModels?.find(
    (m) => m.operationKinds.includes('chat') && m.remoteModelId.toLowerCase() === input.remoteModelId.toLowerCase(),
  );
  const checked = checkProfile(
    {
      providerKind: input.providerKind,
      baseUrl: input.baseUrl,
      authMode: 'apiKey',
      apiKey: { kind: 'new', value: input.apiKey ?? '' },
      defaultQueryParams: { ...input.settings },
      discoveryMode: 'manualOnly',
      configuredModels: [
        {
          remoteModelId: input.remoteModelId,
          operationKinds: ['chat'],
          supportsStructuredOutput: known?.supportsStructuredOutput ?? false,
          supportsToolUse: known?.supportsToolUse ?? false,
          maxContextTokens: known?.maxContextTokens ?? null,
          inputCostPer1MUsd: known?.inputCostPer1MUsd ?? null,
          outputCostPer1MUsd: known?.outputCostPer1MUsd ?? null,
          cachedInputCostPer1MUsd: known?.cachedInputCostPer1MUsd ?? null,
        },
      ],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: input.remoteModelId }],
    },
    { registry: { ai: input.kinds }, ids: randomIds, allowPrivateEgress: input.allowPrivateEgress, existingModels: [] },
  );
  if (!('profile' in checked) || !kind) {
    const issues = checked.issues;
    throw MarginError.validation(`The AI model settings are not usable: ${issues.map(sentenceOf).join(' ')}`, issues);
  }
  const configured = checked.profile.configuredModels[0];
  if (!configured) throw MarginError.internal('The model was not configured.');
  const model = kind.createModel(
    aiConnectionConfigOf(kind, {
      providerKind: input.providerKind,
      baseUrl: input.baseUrl,
      auth: { mode: 'apiKey', apiKey: input.apiKey ?? '' },
      defaultHeaders: {},
      defaultQueryParams: { ...input.settings },
    }),
    {
      remoteModelId: configured.remoteModelId,
      protocolMode: narrowAutoMode('auto', configured, 'chat', kind),
      operationKinds: configured.operationKinds,
      supportsStructuredOutput: configured.supportsStructuredOutput,
      supportsToolUse: configured.supportsToolUse,
    },
  );
  const traits: BoundModelTraits = {
    connectionId: `${input.providerKind}:${configured.remoteModelId}`,
    supportsStructuredOutput: configured.supportsStructuredOutput,
    supportsToolUse: configured.supportsToolUse,
    maxContextTokens: configured.maxContextTokens,
    prices: {
      inputCostPer1MUsd: configured.inputCostPer1MUsd ?? undefined,
      outputCostPer1MUsd: configured.outputCostPer1MUsd ?? undefined,
      cachedInputCostPer1MUsd: configured.cachedInputCostPer1MUsd ?? undefined,
    },
  };
  return { model, traits };
}

/**
 * An issue as a sentence of the message. A setting's message is its schema's (`must be an AWS
 * region …`), which does not name the setting, so its path leads.
 */
function sentenceOf(issue: ValidationIssue): string {
  if (!issue.path.startsWith('defaultQueryParams.')) return issue.message;
  return `${issue.path} ${issue.message.replace(/\.?$/, '.')}`;
}
