import { openKnexStorage } from '@margin/storage-knex';
import { loadConfig } from '../config.js';
import type { CliCommand } from './cli-io.js';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'apply pending database migrations and exit',
  failureStatus: 1,
  async run(_argv, io) {
    const storage = await openKnexStorage({ url: loadConfig(io.env).databaseUrl, migrate: false });
    try {
      const applied = await storage.migrate();
      io.stdout.write(`${applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.'}\n`);
    } finally {
      await storage.close();
    }
    return 0;
  },
};
