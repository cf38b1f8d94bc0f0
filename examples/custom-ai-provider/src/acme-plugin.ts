import type { ProviderPlugin } from '@margin/providers';
import { createAcmeModelsKind } from './acme-kind.js';

/**
 * The example as a provider plugin: one AI kind, `kindAcme`, added after the built-in kinds. The
 * registry calls `ai` once with the host's AI runtime, so Acme's calls pass the same egress guard,
 * timeouts, retries and redaction as the built-in adapters.
 */
export function acmeModelsPlugin(): ProviderPlugin {
  return {
    name: '@margin/example-custom-ai-provider',
    ai: (runtime) => [createAcmeModelsKind(runtime)],
  };
}
