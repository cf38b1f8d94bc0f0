// A built Margin host on a scratch SQLite file (the default: WAL, synchronous=FULL) with one GitHub
// webhook configuration, as an intake-only host: deliveries are recorded, and nothing turns them into
// jobs here (no provider is reachable from the bench). Prints
// `ready <gateway url> <listener path> <secret> <database file>`.
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
    WORKER_ENABLED: 'false',
    WEBHOOK_PROCESSOR_ENABLED: 'false',
  }),
  logDestination: createLogDestination('/dev/null'),
  announce: () => undefined,
});
const api = `${host.url}/api`;
const call = async (method, path, body, token) => {
  const res = await fetch(api + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};
const { accessToken } = await call('POST', '/auth/login', { username: 'admin', password: 'bench-password' });
const client = await call(
  'POST',
  '/clients',
  { displayName: 'Bench', tenantId: '11111111-1111-1111-1111-111111111111' },
  accessToken,
);
const connection = await call(
  'POST',
  `/clients/${client.id}/provider-connections`,
  {
    providerFamily: 'gitHostA',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: 'https://github.com',
    secret: 'ghp_benchNeverUsed000000000000000000000',
  },
  accessToken,
);
const scope = await call(
  'POST',
  `/clients/${client.id}/provider-connections/${connection.id}/scopes`,
  { scopeType: 'organization', scopePath: 'https://github.com/acme' },
  accessToken,
);
const config = await call(
  'POST',
  '/admin/webhook-configurations',
  { clientId: client.id, provider: 'gitHostA', organizationScopeId: scope.id, providerProjectKey: 'acme' },
  accessToken,
);
const listenerPath = new URL(config.listenerUrl).pathname;
console.log(`ready ${host.url} ${listenerPath} ${config.generatedSecret} ${join(dataDir, 'margin.db')}`);
process.on('SIGTERM', async () => {
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
