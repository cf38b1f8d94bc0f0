import type { ProviderRegistry } from '@margin/core/spec';
import { loadCliEnvironment } from './cli-environment.js';
import type { CliIo } from './cli-io.js';
import { loadPlugins } from './load-plugins.js';
import { configuredProviderRegistry } from './provider-registry.js';

/**
 * The adapters a CLI command uses, built as the reference host builds them: the built-ins and the
 * plugins `MARGIN_PLUGINS` names, with the environment's egress rule and call deadlines.
 */
export async function cliRegistry(io: CliIo): Promise<ProviderRegistry> {
  const env = loadCliEnvironment(io.env);
  return configuredProviderRegistry(env, await loadPlugins(env.plugins, io.cwd), io.registryOptions);
}
