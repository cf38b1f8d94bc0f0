import type { ProviderRegistry } from '@margin/core/spec';
import { createProviderRegistry, type ProviderPlugin, type ProviderRegistryOptions } from '@margin/providers';
import type { CallTimeouts } from './env-fields.js';

/** What the registry takes besides the configuration: tests point the adapters at their fakes. */
export type RegistryBase = Omit<ProviderRegistryOptions, 'allowPrivateEgress' | 'plugins'>;

/**
 * The built-in adapters and the plugins, with what the configuration decides: the egress rule and
 * the deadline of every call to a model or a source-control provider. The reference host and the
 * CLI build theirs here.
 */
export function configuredProviderRegistry(
  settings: { allowPrivateEgress: boolean; callTimeouts: CallTimeouts },
  plugins: readonly ProviderPlugin[],
  base: RegistryBase = {},
): ProviderRegistry {
  return createProviderRegistry({
    ...base,
    allowPrivateEgress: settings.allowPrivateEgress,
    plugins,
    ai: { ...base.ai, timeoutMs: settings.callTimeouts.aiMs },
    scm: { ...base.scm, timeoutMs: settings.callTimeouts.scmMs },
  });
}
