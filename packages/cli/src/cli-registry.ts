import type { ProviderRegistry } from '@margin/core/spec';
import { createProviderRegistry } from '@margin/providers';
import { loadCliEnvironment } from './cli-environment.js';
import type { CliIo } from './cli-io.js';
import { loadPlugins } from './load-plugins.js';

/**
 * The adapters a CLI command uses, built as the reference host builds them: the built-ins and the
 * plugins `MARGIN_PLUGINS` names, with the environment's egress rule.
 */
export async function cliRegistry(io: CliIo): Promise<ProviderRegistry> {
  const env = loadCliEnvironment(io.env);
  return createProviderRegistry({
    ...io.registryOptions,
    allowPrivateEgress: env.allowPrivateEgress,
    plugins: await loadPlugins(env.plugins, io.cwd),
  });
}
