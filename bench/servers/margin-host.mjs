// The built Margin host on a scratch SQLite database, logging at the production default level to /dev/null.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogDestination, loadConfig, startMarginHost } from '@margin/server-express';

const dataDir = mkdtempSync(join(tmpdir(), 'margin-bench-'));
const host = await startMarginHost({
  config: loadConfig({
    PORT: '0',
    MARGIN_DATA_DIR: dataDir,
    MARGIN_BOOTSTRAP_ADMIN_USER: 'admin',
    MARGIN_BOOTSTRAP_ADMIN_PASSWORD: 'bench-password',
    ...JSON.parse(process.env.MARGIN_BENCH_ENV ?? '{}'),
  }),
  logDestination: createLogDestination('/dev/null'),
  announce: () => undefined,
});
console.log(`ready ${host.url}`);
process.on('SIGTERM', async () => {
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
