import {
  MICROS_PER_USD,
  toMicroUsd,
  type UsageEventRecord,
  type UsageEventsRepository,
  type UsageGrouping,
  type UsageSums,
} from '@margin/core/spec';
import { readBool, readTime } from '../dialect.js';
import { atomically, type Db, insertInChunks, type Row, textOrNull } from '../rows.js';

const ROLLUP_KEY = ['client_id', 'day', 'source', 'purpose', 'model', 'connection_id', 'logical_model', 'repository'];
const COUNTERS = [
  'calls',
  'input_tokens',
  'cached_input_tokens',
  'output_tokens',
  'reasoning_tokens',
  'cost_micro_usd',
  'approximate_calls',
] as const;

const GROUP_COLUMN: Record<UsageGrouping, string> = {
  day: 'day',
  model: 'model',
  purpose: 'purpose',
  source: 'source',
  repository: 'repository',
  client: 'client_id',
};

const eventFromRow = (row: Row): UsageEventRecord => ({
  id: String(row.id),
  at: readTime(row.at),
  tenantId: String(row.tenant_id),
  clientId: String(row.client_id),
  jobId: textOrNull(row.job_id),
  conversationId: textOrNull(row.conversation_id),
  knowledgeSourceId: textOrNull(row.knowledge_source_id),
  source: String(row.source) as UsageEventRecord['source'],
  purpose: String(row.purpose),
  logicalModel: textOrNull(row.logical_model),
  connectionId: String(row.connection_id),
  model: String(row.model),
  repository: textOrNull(row.repository),
  pullRequestKey: textOrNull(row.pull_request_key),
  inputTokens: Number(row.input_tokens),
  cachedInputTokens: Number(row.cached_input_tokens),
  outputTokens: Number(row.output_tokens),
  reasoningTokens: Number(row.reasoning_tokens),
  estimatedCostUsd: Number(row.cost_micro_usd) / MICROS_PER_USD,
  costIsApproximate: readBool(row.cost_is_approximate),
});

/** The events of one batch summed per rollup row, so each day's row is written once per batch. */
function rollupsOf(events: readonly UsageEventRecord[]): Row[] {
  const rows = new Map<string, Row>();
  for (const e of events) {
    const key: Row = {
      client_id: e.clientId,
      day: e.at.slice(0, 10),
      source: e.source,
      purpose: e.purpose,
      model: e.model,
      connection_id: e.connectionId,
      logical_model: e.logicalModel ?? '',
      repository: e.repository ?? '',
    };
    const id = ROLLUP_KEY.map((k) => key[k]).join('\u0000');
    const row = rows.get(id) ?? { ...key, tenant_id: e.tenantId, ...Object.fromEntries(COUNTERS.map((c) => [c, 0])) };
    row.calls = Number(row.calls) + 1;
    row.input_tokens = Number(row.input_tokens) + e.inputTokens;
    row.cached_input_tokens = Number(row.cached_input_tokens) + e.cachedInputTokens;
    row.output_tokens = Number(row.output_tokens) + e.outputTokens;
    row.reasoning_tokens = Number(row.reasoning_tokens) + e.reasoningTokens;
    row.cost_micro_usd = Number(row.cost_micro_usd) + toMicroUsd(e.estimatedCostUsd);
    row.approximate_calls = Number(row.approximate_calls) + (e.costIsApproximate ? 1 : 0);
    rows.set(id, row);
  }
  return [...rows.values()];
}

export function knexUsageEvents(db: Db): UsageEventsRepository {
  return {
    async record(events) {
      if (events.length === 0) return;
      await atomically(db, async (trx) => {
        await insertInChunks(
          trx,
          'usage_events',
          events.map((e) => ({
            id: e.id,
            at: e.at,
            tenant_id: e.tenantId,
            client_id: e.clientId,
            job_id: e.jobId,
            conversation_id: e.conversationId,
            knowledge_source_id: e.knowledgeSourceId,
            source: e.source,
            purpose: e.purpose,
            logical_model: e.logicalModel,
            connection_id: e.connectionId,
            model: e.model,
            repository: e.repository,
            pull_request_key: e.pullRequestKey,
            input_tokens: e.inputTokens,
            cached_input_tokens: e.cachedInputTokens,
            output_tokens: e.outputTokens,
            reasoning_tokens: e.reasoningTokens,
            cost_micro_usd: toMicroUsd(e.estimatedCostUsd),
            cost_is_approximate: e.costIsApproximate,
          })),
        );
        const added = Object.fromEntries(COUNTERS.map((c) => [c, trx.raw(`usage_daily.${c} + excluded.${c}`)]));
        for (const row of rollupsOf(events)) {
          await trx('usage_daily').insert(row).onConflict(ROLLUP_KEY).merge(added);
        }
      });
    },
    async summarize(query) {
      const key = GROUP_COLUMN[query.groupBy];
      const q = db('usage_daily')
        .select({ key })
        .where('day', '>=', query.fromDay)
        .andWhere('day', '<=', query.toDay)
        .groupBy(key)
        .orderBy(key);
      for (const c of COUNTERS) q.sum({ [c]: c });
      if (query.clientId !== undefined) q.andWhere('client_id', query.clientId);
      if (query.tenantId !== undefined) q.andWhere('tenant_id', query.tenantId);
      if (query.source !== undefined) q.andWhere('source', query.source);
      const rows: Row[] = await q;
      return rows.map((r): { key: string } & UsageSums => ({
        key: String(r.key),
        calls: Number(r.calls),
        inputTokens: Number(r.input_tokens),
        cachedInputTokens: Number(r.cached_input_tokens),
        outputTokens: Number(r.output_tokens),
        reasoningTokens: Number(r.reasoning_tokens),
        costMicroUsd: Number(r.cost_micro_usd),
        approximateCalls: Number(r.approximate_calls),
      }));
    },
    async costSince(clientId, since) {
      const row: Row | undefined = await db('usage_events')
        .where({ client_id: clientId })
        .andWhere('at', '>=', since)
        .sum({ micros: 'cost_micro_usd' })
        .first();
      return Number(row?.micros ?? 0);
    },
    async costOfPullRequest(clientId, pullRequestKey) {
      const row: Row | undefined = await db('usage_events')
        .where({ client_id: clientId, pull_request_key: pullRequestKey })
        .sum({ micros: 'cost_micro_usd' })
        .first();
      return Number(row?.micros ?? 0);
    },
    async listForJob(jobId) {
      const rows: Row[] = await db('usage_events')
        .where({ job_id: jobId })
        .orderBy([{ column: 'at' }, { column: 'id' }]);
      return rows.map(eventFromRow);
    },
    async pruneBefore(at) {
      return atomically(db, async (trx) => {
        const removed = await trx('usage_events').where('at', '<', at).delete();
        await trx('usage_daily').where('day', '<', at.slice(0, 10)).delete();
        return removed;
      });
    },
  };
}
