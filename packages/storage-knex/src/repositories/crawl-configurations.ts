import type {
  CrawlConfigurationRecord,
  CrawlConfigurationsRepository,
  CrawlCounts,
  CrawlOutcome,
} from '@margin/core/spec';
import {
  bindBool,
  claimRows,
  type Dialect,
  readJsonOrNull,
  readTime,
  readTimeOrNull,
  writeJsonOrNull,
} from '../dialect.js';
import { type Db, type Row, textOrNull } from '../rows.js';
import { baseFromRow, baseToRow, configurationTable } from './trigger-configurations.js';

const crawlFromRow = (row: Row, dialect: Dialect): CrawlConfigurationRecord => ({
  ...baseFromRow(row, dialect),
  crawlIntervalSeconds: Number(row.crawl_interval_seconds),
  nextCrawlAt: readTime(row.next_crawl_at),
  lastCrawledAt: readTimeOrNull(row.last_crawled_at),
  lastCrawlOutcome: textOrNull(row.last_crawl_outcome) as CrawlOutcome | null,
  lastCrawlError: textOrNull(row.last_crawl_error),
  lastCrawlCounts: readJsonOrNull<CrawlCounts>(row.last_crawl_counts, dialect),
  leaseOwner: textOrNull(row.lease_owner),
  leaseExpiresAt: readTimeOrNull(row.lease_expires_at),
});

export function knexCrawlConfigurations(db: Db, dialect: Dialect): CrawlConfigurationsRepository {
  const table = () => db('crawl_configurations');
  return {
    async insert(c) {
      await table().insert({
        ...baseToRow(c),
        crawl_interval_seconds: c.crawlIntervalSeconds,
        next_crawl_at: c.nextCrawlAt,
        last_crawled_at: c.lastCrawledAt,
        last_crawl_outcome: c.lastCrawlOutcome,
        last_crawl_error: c.lastCrawlError,
        last_crawl_counts: writeJsonOrNull(c.lastCrawlCounts),
        lease_owner: c.leaseOwner,
        lease_expires_at: c.leaseExpiresAt,
      });
    },
    ...configurationTable(db, 'crawl_configurations', (row) => crawlFromRow(row, dialect)),
    async claimDue({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      const active = bindBool(true, dialect);
      const rows = await claimRows(db, dialect, {
        table: 'crawl_configurations',
        // Configurations of a deactivated client, or of a deactivated tenant's, stay idle until it is
        // activated again.
        pick: `select id from crawl_configurations
          where is_active = ? and next_crawl_at <= ? and (lease_expires_at is null or lease_expires_at < ?)
            and exists (select 1 from clients c join tenants t on t.id = c.tenant_id
              where c.id = crawl_configurations.client_id and c.is_active = ? and t.is_active = ?)
          order by next_crawl_at, id limit ?`,
        pickBindings: [active, now, now, active, active, limit],
        set: 'lease_owner = ?, lease_expires_at = ?',
        setBindings: [owner, leaseUntil],
      });
      return rows
        .map((r) => crawlFromRow(r, dialect))
        .sort((a, b) => a.nextCrawlAt.localeCompare(b.nextCrawlAt) || a.id.localeCompare(b.id));
    },
    async finishCrawl(id, owner, finish) {
      const n = await table()
        .where({ id, lease_owner: owner })
        .update({
          last_crawled_at: finish.at,
          next_crawl_at: finish.nextCrawlAt,
          last_crawl_outcome: finish.outcome,
          last_crawl_error: finish.error,
          last_crawl_counts: writeJsonOrNull(finish.counts),
          lease_owner: null,
          lease_expires_at: null,
        });
      return n === 1;
    },
  };
}
