/**
 * The reference host with the Acme adapter plugged in: `pnpm --filter @margin/example-custom-ai-provider start`.
 * Configured like `margin serve` (docs/operations.md); only the provider registry differs.
 */
import { loadConfig, startMarginHost } from '@margin/server-express';
import { createAcmeRegistry } from './registry.js';

const config = loadConfig();
const host = await startMarginHost({
  config,
  providers: createAcmeRegistry({ allowPrivateEgress: config.allowPrivateEgress }),
});
console.log(`Margin with Acme Models as kindCompatible: ${host.url}/api`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void host.close().then(() => process.exit(0));
  });
}
