import { bindReviewModel, MarginError, type ModelBinding, reviewModelsOf } from '@margin/core';
import type { ProviderRegistry, ReviewModels } from '@margin/core/spec';
import { BUILT_IN_AI_PROVIDER_KINDS } from '@margin/core/spec';
import { loadCliEnvironment } from './cli-environment.js';
import type { CliIo } from './cli-io.js';

/** The flags naming the model, shared by `review` and `eval`. */
export const MODEL_FLAGS = {
  'provider-kind': { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'ai-setting': { type: 'string', multiple: true },
} as const;

export const MODEL_USAGE = `Model (flags win over the environment; the key is read from the environment only):
  --provider-kind KIND   MARGIN_AI_PROVIDER_KIND; default kindCompatible; one of
                         ${BUILT_IN_AI_PROVIDER_KINDS.slice(0, 4).join(', ')},
                         ${BUILT_IN_AI_PROVIDER_KINDS.slice(4).join(', ')}
  --base-url URL         the provider's endpoint (MARGIN_AI_BASE_URL); empty for kinds with a public one
  --model ID             the model id at the provider (MARGIN_AI_MODEL)
  --ai-setting K=V       a provider setting, repeatable: region (kindCloudB), project, location (kindCloudC),
                         a plugin kind's own; any other key is sent as a query parameter
  MARGIN_AI_API_KEY      the key; kindCompatible servers may run without one
  MARGIN_ALLOW_PRIVATE_EGRESS=true  allow a model on loopback, a private address or plain http`;

export interface ModelFlagValues {
  'provider-kind'?: string | undefined;
  'base-url'?: string | undefined;
  model?: string | undefined;
  'ai-setting'?: string[] | undefined;
}

/**
 * The model from flags and environment, built through the providers' registry exactly as the
 * service builds a connection's model: the same kinds, endpoint checks and egress guard.
 */
export function modelFromOptions(
  values: ModelFlagValues,
  io: CliIo,
  registry: ProviderRegistry,
): ModelBinding & { models: ReviewModels; label: string } {
  const env = loadCliEnvironment(io.env);
  const providerKind = values['provider-kind'] ?? env.ai.providerKind ?? 'kindCompatible';
  if (!registry.ai.some((k) => k.kind === providerKind)) {
    const kinds = registry.ai.map((k) => k.kind).join(', ');
    throw MarginError.validation(`--provider-kind must be one of ${kinds} (got '${providerKind.slice(0, 64)}').`);
  }
  const remoteModelId = values.model ?? env.ai.model;
  if (!remoteModelId) throw MarginError.validation('Name the model with --model or MARGIN_AI_MODEL.');
  const settings: Record<string, string> = {};
  for (const pair of values['ai-setting'] ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw MarginError.validation(`--ai-setting takes NAME=VALUE (got '${pair}').`);
    settings[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  try {
    const binding = bindReviewModel({
      kinds: registry.ai,
      providerKind,
      baseUrl: values['base-url'] ?? env.ai.baseUrl ?? '',
      remoteModelId,
      apiKey: env.ai.apiKey,
      settings,
      allowPrivateEgress: env.allowPrivateEgress,
    });
    return {
      ...binding,
      models: reviewModelsOf(binding.model, binding.traits),
      label: `${providerKind}/${remoteModelId}`,
    };
  } catch (error) {
    throw MarginError.isInstance(error) && error.code === 'validation_failed' ? inFlagTerms(error) : error;
  }
}

/**
 * The service's field names (`baseUrl`, `auth.apiKey`, `defaultQueryParams.<key>`, where a kind's
 * settings are named) said as the CLI's flags and variables. A key may hold `-` and `.` but never
 * ends with one, so a sentence's full stop stays out of it.
 */
function inFlagTerms(error: MarginError): MarginError {
  const words: Array<[RegExp, string]> = [
    [/\bbaseUrl\b/g, '--base-url'],
    [/\bapiKey\b/g, 'MARGIN_AI_API_KEY'],
    [/\bdefaultQueryParams\.([A-Za-z][\w-]*(?:\.[\w-]+)*)/g, '--ai-setting $1=…'],
  ];
  let message = error.message;
  for (const [pattern, name] of words) message = message.replace(pattern, name);
  if (/private|loopback|plain http/i.test(message) && !/MARGIN_ALLOW_PRIVATE_EGRESS/.test(message)) {
    message += ' Set MARGIN_ALLOW_PRIVATE_EGRESS=true for a local model.';
  }
  return MarginError.validation(message);
}
