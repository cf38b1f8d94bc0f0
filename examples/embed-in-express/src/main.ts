/**
 * Runs the example app: `pnpm --filter @margin/example-embed-in-express start`.
 * The admin password is the one secret it needs, so it comes from the environment, never from code.
 */
import { randomBytes } from 'node:crypto';
import { startApp } from './app.js';

const password = process.env.MARGIN_ADMIN_PASSWORD;
if (!password || password.length < 8) {
  console.error('Set MARGIN_ADMIN_PASSWORD (at least 8 characters) for the bootstrap administrator.');
  process.exit(1);
}

const app = await startApp({
  // In memory, with keys made up for this run: nothing survives a restart. A real app points at its
  // database and takes both keys from its secret store, the same ones on every start.
  databaseUrl: 'sqlite::memory:',
  jwtSecret: randomBytes(48).toString('base64url'),
  secretsKey: randomBytes(32),
  bootstrapAdmin: { username: 'admin', password },
  port: 3000,
});
console.log(`App:    ${app.url}/hello`);
console.log(`Margin: ${app.url}/review-api (sign in: POST /review-api/auth/login as "admin")`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
