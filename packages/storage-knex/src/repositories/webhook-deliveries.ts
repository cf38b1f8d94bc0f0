import {
  type DeliveryOutcome,
  duplicateOf,
  type ProcessingState,
  type WebhookDeliveriesRepository,
  type WebhookDeliveryRecord,
  type WebhookEventKind,
} from '@margin/core/spec';
import type { Knex } from 'knex';
import { claimRows, type Dialect, readJson, readTime, readTimeOrNull, rowsOf, writeJson } from '../dialect.js';
import { inOrder } from '../paging.js';
import { atomically, type Db, numberOrNull, type Row, textOrNull } from '../rows.js';
import { insertConversation } from './conversations.js';

const deliveryFromRow = (row: Row, dialect: Dialect): WebhookDeliveryRecord => ({
  id: String(row.id),
  configurationId: String(row.configuration_id),
  clientId: String(row.client_id),
  receivedAt: readTime(row.received_at),
  eventType: textOrNull(row.event_type),
  eventKind: textOrNull(row.event_kind) as WebhookEventKind | null,
  idempotencyKey: textOrNull(row.idempotency_key),
  outcome: String(row.outcome) as DeliveryOutcome,
  httpStatus: Number(row.http_status),
  repositoryId: textOrNull(row.repository_id),
  pullRequestId: numberOrNull(row.pull_request_id),
  sourceBranch: textOrNull(row.source_branch),
  targetBranch: textOrNull(row.target_branch),
  headSha: textOrNull(row.head_sha),
  actions: readJson<string[]>(row.actions, dialect),
  failureReason: textOrNull(row.failure_reason),
  processingState: textOrNull(row.processing_state) as ProcessingState | null,
  processAfter: readTimeOrNull(row.process_after),
  leaseOwner: textOrNull(row.lease_owner),
  attempts: Number(row.attempts),
});

const DELIVERY_COLUMNS = [
  'id',
  'configuration_id',
  'client_id',
  'received_at',
  'event_type',
  'event_kind',
  'idempotency_key',
  'dedupe_key',
  'outcome',
  'http_status',
  'repository_id',
  'pull_request_id',
  'source_branch',
  'target_branch',
  'head_sha',
  'actions',
  'failure_reason',
  'processing_state',
  'process_after',
  'lease_owner',
  'attempts',
] as const;

function deliveryValues(d: WebhookDeliveryRecord): Knex.RawBinding[] {
  const row: Record<(typeof DELIVERY_COLUMNS)[number], Knex.RawBinding> = {
    id: d.id,
    configuration_id: d.configurationId,
    client_id: d.clientId,
    received_at: d.receivedAt,
    event_type: d.eventType,
    event_kind: d.eventKind,
    idempotency_key: d.idempotencyKey,
    dedupe_key: d.processingState !== null ? d.idempotencyKey : null,
    outcome: d.outcome,
    http_status: d.httpStatus,
    repository_id: d.repositoryId,
    pull_request_id: d.pullRequestId,
    source_branch: d.sourceBranch,
    target_branch: d.targetBranch,
    head_sha: d.headSha,
    actions: writeJson(d.actions),
    failure_reason: d.failureReason,
    processing_state: d.processingState,
    process_after: d.processAfter,
    lease_owner: d.leaseOwner,
    attempts: d.attempts,
  };
  return DELIVERY_COLUMNS.map((column) => row[column]);
}

// One prepared statement for the receiver's write: `on conflict ... do nothing` on the partial
// unique index lets the database say whether this delivery id was already accepted, without an
// error (which would abort a PostgreSQL transaction) and without a read before the write.
const INSERT_DELIVERY = `insert into webhook_deliveries (${DELIVERY_COLUMNS.join(', ')}) values (${DELIVERY_COLUMNS.map(
  () => '?',
).join(', ')}) on conflict (configuration_id, dedupe_key) where dedupe_key is not null do nothing`;

export function knexWebhookDeliveries(db: Db, dialect: Dialect): WebhookDeliveriesRepository {
  const table = () => db('webhook_deliveries');
  const insert = async (on: Db, d: WebhookDeliveryRecord): Promise<boolean> => {
    const result = await on.raw(`${INSERT_DELIVERY} returning id`, deliveryValues(d));
    return rowsOf(result, dialect).length === 1;
  };
  const recordOn = async (on: Db, delivery: WebhookDeliveryRecord): Promise<'recorded' | 'duplicate'> => {
    // The conversation a mention opened lands with its delivery; a comment already known adds nothing.
    if (delivery.conversation) await insertConversation(on, dialect, delivery.conversation);
    if (await insert(on, delivery)) return 'recorded';
    await insert(on, duplicateOf(delivery));
    return 'duplicate';
  };
  return {
    async record(delivery) {
      return delivery.conversation ? atomically(db, (on) => recordOn(on, delivery)) : recordOn(db, delivery);
    },
    async recordMany(deliveries) {
      // Inside a transaction already, its commit covers these rows; otherwise one of their own.
      return atomically(db, async (on) => {
        const out: Array<'recorded' | 'duplicate'> = [];
        for (const d of deliveries) out.push(await recordOn(on, d));
        return out;
      });
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row ? deliveryFromRow(row, dialect) : undefined;
    },
    async listForConfiguration(configurationId, take) {
      const received = table().where({ configuration_id: configurationId });
      const rows = await inOrder(received, { key: 'received_at', id: 'id', direction: 'desc' }).limit(take);
      return rows.map((r: Row) => deliveryFromRow(r, dialect));
    },
    async claimPending({ owner, now, leaseMs, limit }) {
      const leaseUntil = new Date(Date.parse(now) + leaseMs).toISOString();
      const rows = await claimRows(db, dialect, {
        table: 'webhook_deliveries',
        pick: `select id from webhook_deliveries
          where processing_state in ('pending', 'processing') and process_after <= ?
          order by process_after, received_at, id limit ?`,
        pickBindings: [now, limit],
        set: `processing_state = 'processing', process_after = ?, lease_owner = ?, attempts = attempts + 1`,
        setBindings: [leaseUntil, owner],
      });
      return rows
        .map((r) => deliveryFromRow(r, dialect))
        .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt) || a.id.localeCompare(b.id));
    },
    async deleteReceivedBefore(before, limit) {
      // Oldest first through webhook_deliveries_received, in bounded batches so a long backlog never
      // holds one long write lock.
      const old = db('webhook_deliveries')
        .select('id')
        .where('received_at', '<', before)
        .where((q) => q.whereNull('processing_state').orWhere('processing_state', 'done'))
        .orderBy('received_at')
        .limit(limit);
      return table().whereIn('id', old).delete();
    },
    async finishProcessing(id, owner, result) {
      const n = await table()
        .where({ id, lease_owner: owner, processing_state: 'processing' })
        .update({
          outcome: result.outcome,
          actions: writeJson(result.actions),
          failure_reason: result.failureReason,
          processing_state: result.processingState,
          process_after: result.processAfter,
          lease_owner: null,
          ...(result.refundAttempt ? { attempts: db.raw('attempts - 1') } : {}),
        });
      return n === 1;
    },
  };
}
