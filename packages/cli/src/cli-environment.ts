import { MarginError } from '@margin/core';
import type { AiProviderKind } from '@margin/core/spec';
import { z } from 'zod';
import {
  CALL_TIMEOUT_FIELDS,
  type CallTimeouts,
  callTimeoutsOf,
  flag,
  optionalText,
  SPEND_CAP_FIELDS,
} from './env-fields.js';
import { pluginSpecifiers } from './load-plugins.js';

/** The `margin review` and `margin eval` part of the environment (docs/cli.md). */
const CliEnvSchema = z.object({
  // Checked against the registered kinds when the model is bound.
  MARGIN_AI_PROVIDER_KIND: optionalText,
  MARGIN_AI_BASE_URL: optionalText,
  MARGIN_AI_MODEL: optionalText,
  MARGIN_AI_API_KEY: optionalText,
  MARGIN_SCM_TOKEN: optionalText,
  MARGIN_ALLOW_PRIVATE_EGRESS: flag,
  ...CALL_TIMEOUT_FIELDS,
  ...SPEND_CAP_FIELDS,
  MARGIN_PLUGINS: optionalText,
});

export interface CliEnvironment {
  ai: {
    providerKind: AiProviderKind | undefined;
    baseUrl: string | undefined;
    model: string | undefined;
    /** Only ever from the environment, never a flag (flags show in process lists and shell history). */
    apiKey: string | undefined;
  };
  scmToken: string | undefined;
  allowPrivateEgress: boolean;
  callTimeouts: CallTimeouts;
  /** What one review may spend (US$), as the service reads it; `--soft-cost-usd`/`--max-cost-usd` win. */
  spendCaps: { softUsd: number | undefined; hardUsd: number | undefined };
  /** `MARGIN_PLUGINS`: provider plugins to register, as the reference host does. */
  plugins: string[];
}

/** Reads the CLI's variables. Errors name the variable and never echo its value. */
export function loadCliEnvironment(env: NodeJS.ProcessEnv = process.env): CliEnvironment {
  const parsed = CliEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${String(i.path[0])} ${i.message}`).join('; ');
    throw MarginError.validation(`Invalid configuration: ${problems}.`);
  }
  const e = parsed.data;
  return {
    ai: {
      providerKind: e.MARGIN_AI_PROVIDER_KIND,
      baseUrl: e.MARGIN_AI_BASE_URL,
      model: e.MARGIN_AI_MODEL,
      apiKey: e.MARGIN_AI_API_KEY,
    },
    scmToken: e.MARGIN_SCM_TOKEN,
    allowPrivateEgress: e.MARGIN_ALLOW_PRIVATE_EGRESS,
    callTimeouts: callTimeoutsOf(e),
    spendCaps: { softUsd: e.MARGIN_REVIEW_SOFT_CAP_USD, hardUsd: e.MARGIN_REVIEW_HARD_CAP_USD },
    plugins: pluginSpecifiers(e.MARGIN_PLUGINS),
  };
}
