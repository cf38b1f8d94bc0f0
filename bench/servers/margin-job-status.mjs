// A built Margin host on scratch SQLite (or DATABASE_URL) holding one completed review with ten
// findings; prints `ready <status url> <access token>`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogDestination, loadConfig, startMarginHost } from '@margin/server-express';

const findings = Array.from({ length: 10 }, (_, i) => ({
  id: `f${i}`,
  fingerprint: `fp${i}`,
  filePath: `src/module-${i}.ts`,
  startLine: 10 + i,
  endLine: 12 + i,
  severity: 'warning',
  confidence: 80,
  category: 'correctness',
  message: 'The retry loop never gives up when the server keeps answering 503; cap the attempts.',
  publication: 'published',
}));
const engine = {
  specificationVersion: 'v1',
  async review() {
    return {
      status: 'completed',
      result: {
        summary: 'Ten findings.',
        findings,
        coverage: { files: findings.map((f) => ({ path: f.filePath, state: 'reviewed' })) },
      },
      usage: { inputTokens: 12000, cachedInputTokens: 3000, outputTokens: 900, estimatedCostUsd: 0.04, byModel: [] },
    };
  },
};

const dataDir = mkdtempSync(join(tmpdir(), 'margin-bench-'));
const host = await startMarginHost({
  config: loadConfig({
    PORT: '0',
    MARGIN_DATA_DIR: dataDir,
    MARGIN_BOOTSTRAP_ADMIN_USER: 'admin',
    MARGIN_BOOTSTRAP_ADMIN_PASSWORD: 'bench-password',
    WORKER_POLL_INTERVAL_MILLISECONDS: '50',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
  }),
  logDestination: createLogDestination('/dev/null'),
  announce: () => undefined,
  reviewEngine: engine,
});
const api = `${host.url}/api`;
const call = async (method, path, body, token) => {
  const res = await fetch(api + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json();
};
const { accessToken } = await call('POST', '/auth/login', { username: 'admin', password: 'bench-password' });
const client = await call(
  'POST',
  '/clients',
  { displayName: 'Bench', tenantId: '11111111-1111-1111-1111-111111111111' },
  accessToken,
);
const job = await call(
  'POST',
  `/clients/${client.id}/reviewing/jobs`,
  {
    provider: 'gitHostA',
    hostBaseUrl: 'https://github.com',
    repository: { externalRepositoryId: '1', ownerOrNamespace: 'acme', projectPath: 'acme/app' },
    codeReview: { platform: 'pullRequest', externalReviewId: '1', number: 1 },
  },
  accessToken,
);
for (;;) {
  const status = await call('GET', `/reviewing/jobs/${job.jobId}/status`, undefined, accessToken);
  if (status.status === 'completed') break;
  await new Promise((r) => setTimeout(r, 20));
}
console.log(`ready ${api}/reviewing/jobs/${job.jobId}/status ${accessToken}`);
process.on('SIGTERM', async () => {
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
});
