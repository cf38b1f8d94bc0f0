import {
  MarginError,
  type WebhookConfigurationRecord,
  type WebhookConfigurationsRepository,
  type WebhookEventKind,
} from '@margin/core/spec';
import { type Dialect, readJson, rowsOf, writeJson } from '../dialect.js';
import { conflictOnDuplicate, type Db, type Row } from '../rows.js';
import { baseFromRow, baseToRow, configurationTable } from './trigger-configurations.js';

const webhookFromRow = (row: Row, dialect: Dialect): WebhookConfigurationRecord => ({
  ...baseFromRow(row, dialect),
  pathKey: String(row.path_key),
  sealedSecret: String(row.sealed_secret),
  enabledEvents: readJson<WebhookEventKind[]>(row.enabled_events, dialect),
});

export function knexWebhookConfigurations(db: Db, dialect: Dialect): WebhookConfigurationsRepository {
  const table = () => db('webhook_configurations');
  const read = (row: Row | undefined) => (row ? webhookFromRow(row, dialect) : undefined);
  return {
    async insert(c) {
      await conflictOnDuplicate(
        table().insert({
          ...baseToRow(c),
          path_key: c.pathKey,
          sealed_secret: c.sealedSecret,
          enabled_events: writeJson(c.enabledEvents),
        }),
        () => MarginError.conflict('A webhook configuration with this path key exists.'),
      );
    },
    ...configurationTable(db, 'webhook_configurations', (row) => webhookFromRow(row, dialect)),
    async findByPathKey(pathKey) {
      // Raw SQL: the receiver's lookup runs on every delivery that misses the cache.
      const result = await db.raw('select * from webhook_configurations where path_key = ?', [pathKey]);
      return read(rowsOf(result, dialect)[0]);
    },
  };
}
