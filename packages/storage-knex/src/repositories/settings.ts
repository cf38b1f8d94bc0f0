import type { SettingsRepository } from '@margin/core/spec';
import { type Dialect, readJson, writeJson } from '../dialect.js';
import type { Db } from '../rows.js';

export function knexSettings(db: Db, dialect: Dialect): SettingsRepository {
  return {
    async get(key) {
      const row = await db('settings').where({ key }).first('value');
      return row ? readJson(row.value, dialect) : undefined;
    },
    async put(key, value, updatedAt) {
      await db('settings')
        .insert({ key, value: writeJson(value), updated_at: updatedAt })
        .onConflict('key')
        .merge(['value', 'updated_at']);
    },
  };
}
