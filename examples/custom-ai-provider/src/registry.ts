import type { ProviderRegistry } from '@margin/core/spec';
import { createProviderRegistry, type ProviderRegistryOptions } from '@margin/providers';
import { acmeModelsPlugin } from './acme-plugin.js';

export type AcmeRegistryOptions = Omit<ProviderRegistryOptions, 'plugins'>;

/**
 * Every built-in adapter, unchanged, plus `kindAcme` from the plugin. Pass the host's
 * `allowPrivateEgress` (`MARGIN_ALLOW_PRIVATE_EGRESS`), so save-time and connect-time checks agree;
 * `ai` tunes the shared AI runtime's timeouts and retries, Acme's included.
 */
export function createAcmeRegistry(options: AcmeRegistryOptions = {}): ProviderRegistry {
  return createProviderRegistry({ ...options, plugins: [acmeModelsPlugin()] });
}
