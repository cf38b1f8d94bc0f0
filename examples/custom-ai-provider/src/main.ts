/**
 * The reference host with the Acme plugin registered: `pnpm --filter @margin/example-custom-ai-provider start`.
 * Configured like `margin serve` (docs/operations.md); the provider registry is the built-in one
 * plus `kindAcme`.
 */
import { loadConfig, startMarginHost } from '@margin/server-express';
import { createAcmeRegistry } from './registry.js';

const config = loadConfig();
const host = await startMarginHost({
  config,
  providers: createAcmeRegistry({ allowPrivateEgress: config.allowPrivateEgress }),
});
console.log(`Margin with Acme Models (kindAcme): ${host.url}/api`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void host.close().then(() => process.exit(0));
  });
}
