import { MarginError, type SealedField, sealedSecretContext } from '@margin/core/spec';
import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/** Every column holding sealed values, with the field its values are bound to. */
const SEALED_COLUMNS: Array<{ table: string; column: string; field: SealedField }> = [
  { table: 'provider_connections', column: 'sealed_secret', field: 'provider-connection.secret' },
  { table: 'ai_connections', column: 'api_key_sealed', field: 'ai-connection.apiKey' },
  { table: 'webhook_configurations', column: 'sealed_secret', field: 'webhook-configuration.secret' },
];
/** The one setting that holds a sealed value (JSON: a string). */
const SEALED_SETTINGS = ['system.secretsKeyCheck'];

/**
 * Sealed values become bound to their row and field (AES-GCM associated data), so a value copied
 * into another row does not open there. Re-sealing needs the secrets key: the storage must be
 * opened with `secrets` when unbound (`v1:`) values exist.
 */
export const bindSealedSecrets: Migration = {
  name: '0012_bind_sealed_secrets',
  async up(knex: Knex, { secrets }) {
    const box = () => {
      if (!secrets) {
        throw MarginError.internal(
          'Migration 0010 re-seals stored credentials and needs the secrets key: open the storage with `secrets` (the host does this with MARGIN_SECRETS_KEY).',
        );
      }
      return secrets;
    };
    for (const { table, column, field } of SEALED_COLUMNS) {
      const rows = (await knex(table).select('id', column).where(column, 'like', 'v1:%')) as Array<
        Record<string, string>
      >;
      for (const row of rows) {
        const id = String(row.id);
        const upgraded = box().upgrade(String(row[column]), sealedSecretContext(field, id));
        await knex(table)
          .where({ id })
          .update({ [column]: upgraded });
      }
    }
    for (const key of SEALED_SETTINGS) {
      const row = (await knex('settings').where({ key }).first()) as { value: unknown } | undefined;
      if (!row) continue;
      // jsonb comes back parsed on PostgreSQL, as text on SQLite.
      const value = typeof row.value === 'string' && row.value.startsWith('"') ? JSON.parse(row.value) : row.value;
      if (typeof value !== 'string' || !value.startsWith('v1:')) continue;
      const upgraded = box().upgrade(value, sealedSecretContext('setting.value', key));
      await knex('settings')
        .where({ key })
        .update({ value: JSON.stringify(upgraded) });
    }
  },
};
