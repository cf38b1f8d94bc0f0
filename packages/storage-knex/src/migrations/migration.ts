import type { SecretBox } from '@margin/core/spec';
import type { Knex } from 'knex';

/** What a migration may need besides the database: the secrets key, for migrations that re-seal. */
export interface MigrationContext {
  secrets?: SecretBox | undefined;
}

/** Forward-only: there is no `down`. Each migration handles both dialects. */
export interface Migration {
  name: string;
  /** False: runs outside the migrator's transaction (and opens its own), e.g. to change SQLite pragmas. */
  transaction?: false;
  up(knex: Knex, context: MigrationContext): Promise<void>;
}
