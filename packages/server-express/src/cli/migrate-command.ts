import type { CliCommand } from '@margin/cli';
import { createAesGcmSecretBox } from '@margin/core';
import { openKnexStorage } from '@margin/storage-knex';
import { loadConfig } from '../config.js';
import { loadHostSecrets } from '../host/host-secrets.js';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'apply pending database migrations and exit',
  failureStatus: 1,
  async run(_argv, io) {
    const config = loadConfig(io.env);
    // Re-sealing stored secrets (migration 0012) needs the secrets key.
    const { secretsKey } = await loadHostSecrets(config);
    const storage = await openKnexStorage({
      url: config.databaseUrl,
      migrate: false,
      secrets: createAesGcmSecretBox(secretsKey),
    });
    try {
      const applied = await storage.migrate();
      io.stdout.write(`${applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.'}\n`);
    } finally {
      await storage.close();
    }
    return 0;
  },
};
