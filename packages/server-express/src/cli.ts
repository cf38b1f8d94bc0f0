#!/usr/bin/env node
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createAesGcmSecretBox, MarginError } from '@margin/core';
import { openKnexStorage } from '@margin/storage-knex';
import { loadConfig } from './config.js';
import { loadHostSecrets } from './host/host-secrets.js';
import { startMarginHost } from './host/start-host.js';
import { buildOpenApiDocument, serializeOpenApi } from './openapi/openapi-document.js';
import { API_ROUTES } from './routes/index.js';

const USAGE = `Usage: margin <command>

Commands:
  serve              start the gateway, API, webhook receiver and workers (default)
  migrate            apply pending database migrations and exit
  openapi [--out F]  write the OpenAPI document to F (default: stdout)

Configuration comes from the environment; see docs/operations.md.`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  switch (command) {
    case 'serve':
      return serve();
    case 'migrate': {
      const config = loadConfig();
      const { secretsKey } = await loadHostSecrets(config);
      const storage = await openKnexStorage({
        url: config.databaseUrl,
        migrate: false,
        secrets: createAesGcmSecretBox(secretsKey),
      });
      try {
        const applied = await storage.migrate();
        console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
      } finally {
        await storage.close();
      }
      return 0;
    }
    case 'openapi': {
      const text = serializeOpenApi(buildOpenApiDocument(API_ROUTES));
      if (values.out) await writeFile(values.out, text);
      else process.stdout.write(text);
      return 0;
    }
    default:
      console.error(`Unknown command '${command}'.\n\n${USAGE}`);
      return 2;
  }
}

async function serve(): Promise<number> {
  const host = await startMarginHost({ config: loadConfig() });
  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        host.logger.warn({ signal }, 'second signal: exiting at once');
        resolve(1);
        return;
      }
      stopping = true;
      host.logger.info({ signal }, 'shutting down');
      host.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Expected failures (bad configuration, wrong secrets key) get their message; anything else a generic line.
    const message = MarginError.isInstance(error)
      ? error.message
      : `Unexpected failure: ${(error as Error)?.message ?? error}`;
    console.error(`margin: ${message}`);
    process.exit(1);
  },
);
