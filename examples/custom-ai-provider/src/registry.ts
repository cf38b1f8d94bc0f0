import type { ProviderRegistry } from '@margin/core';
import { type AiRuntimeOptions, createAiRuntime, createProviderRegistry } from '@margin/providers';
import { createAcmeModelsKind } from './acme-kind.js';

export interface AcmeRegistryOptions {
  /** `MARGIN_ALLOW_PRIVATE_EGRESS`: must be the value core gets, or save-time and connect-time checks disagree. */
  allowPrivateEgress?: boolean | undefined;
  /** Timeouts and retries of Acme's calls. */
  runtime?: Omit<AiRuntimeOptions, 'allowPrivateEgress'> | undefined;
}

/**
 * Every built-in adapter, with Acme Models serving `kindCompatible` in place of the built-in
 * OpenAI-compatible one. Core takes the first adapter of a kind, so the built-in one is replaced
 * rather than shadowed, keeping the kinds in their usual order.
 */
export function createAcmeRegistry(options: AcmeRegistryOptions = {}): ProviderRegistry {
  const builtIn = createProviderRegistry({ allowPrivateEgress: options.allowPrivateEgress });
  const acme = createAcmeModelsKind(
    createAiRuntime({ ...options.runtime, allowPrivateEgress: options.allowPrivateEgress }),
  );
  return { scm: builtIn.scm, ai: builtIn.ai.map((kind) => (kind.kind === acme.kind ? acme : kind)) };
}
