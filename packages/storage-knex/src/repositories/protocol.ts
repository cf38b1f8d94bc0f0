import type { ProtocolEventRecord, ProtocolPassRecord, ProtocolRepository } from '@margin/core/spec';
import { type Dialect, readJsonOrNull, readTime, readTimeOrNull, writeJsonOrNull } from '../dialect.js';
import { keyset, keysetPage } from '../paging.js';
import { type Db, insertInChunks, numberOrNull, type Row, textOrNull } from '../rows.js';

const IN_RUN_ORDER = keyset<ProtocolPassRecord>('started_at', 'asc', (p) => ({ key: p.startedAt, id: p.id }));

export function knexProtocol(db: Db, dialect: Dialect): ProtocolRepository {
  const passFromRow = (row: Row): ProtocolPassRecord => ({
    id: String(row.id),
    jobId: String(row.job_id),
    attempt: Number(row.attempt),
    stage: String(row.stage),
    label: String(row.label),
    filePath: textOrNull(row.file_path),
    startedAt: readTime(row.started_at),
    completedAt: readTimeOrNull(row.completed_at),
    outcome: row.outcome as ProtocolPassRecord['outcome'],
    inputTokens: Number(row.input_tokens),
    cachedInputTokens: Number(row.cached_input_tokens),
    outputTokens: Number(row.output_tokens),
  });
  const eventFromRow = (row: Row, includeBody: boolean): ProtocolEventRecord => ({
    id: String(row.id),
    passId: String(row.pass_id),
    jobId: String(row.job_id),
    sequence: Number(row.sequence),
    kind: String(row.kind),
    name: String(row.name),
    eventCategory: row.event_category as ProtocolEventRecord['eventCategory'],
    occurredAt: readTime(row.occurred_at),
    durationMs: numberOrNull(row.duration_ms),
    inputTokens: numberOrNull(row.input_tokens),
    outputTokens: numberOrNull(row.output_tokens),
    body: includeBody ? readJsonOrNull(row.body, dialect) : null,
  });
  return {
    async insertPass(p) {
      await db('protocol_passes').insert({
        id: p.id,
        job_id: p.jobId,
        attempt: p.attempt,
        stage: p.stage,
        label: p.label,
        file_path: p.filePath,
        started_at: p.startedAt,
        completed_at: p.completedAt,
        outcome: p.outcome,
        input_tokens: p.inputTokens,
        cached_input_tokens: p.cachedInputTokens,
        output_tokens: p.outputTokens,
      });
    },
    async completePass(id, patch) {
      await db('protocol_passes').where({ id }).update({
        completed_at: patch.completedAt,
        outcome: patch.outcome,
        input_tokens: patch.inputTokens,
        cached_input_tokens: patch.cachedInputTokens,
        output_tokens: patch.outputTokens,
      });
    },
    async insertEvents(events) {
      await insertInChunks(
        db,
        'protocol_events',
        events.map((e) => ({
          id: e.id,
          pass_id: e.passId,
          job_id: e.jobId,
          sequence: e.sequence,
          kind: e.kind,
          name: e.name,
          event_category: e.eventCategory,
          occurred_at: e.occurredAt,
          duration_ms: e.durationMs,
          input_tokens: e.inputTokens,
          output_tokens: e.outputTokens,
          body: writeJsonOrNull(e.body),
        })),
      );
    },
    async read(jobId, { eventCategory, includeBodies, page }) {
      const passes = await keysetPage(db('protocol_passes').where({ job_id: jobId }), IN_RUN_ORDER, page, passFromRow);
      if (passes.items.length === 0) return { items: [], nextCursor: null };
      const columns = includeBodies
        ? ['*']
        : [
            'id',
            'pass_id',
            'job_id',
            'sequence',
            'kind',
            'name',
            'event_category',
            'occurred_at',
            'duration_ms',
            'input_tokens',
            'output_tokens',
          ];
      const eventsQuery = db('protocol_events')
        .where({ job_id: jobId })
        .whereIn(
          'pass_id',
          passes.items.map((p) => p.id),
        )
        .orderBy('sequence')
        .select(columns);
      if (eventCategory) eventsQuery.where({ event_category: eventCategory });
      const byPass = new Map<string, ProtocolEventRecord[]>();
      for (const row of await eventsQuery) {
        const event = eventFromRow(row, includeBodies);
        const list = byPass.get(event.passId) ?? [];
        list.push(event);
        byPass.set(event.passId, list);
      }
      return {
        items: passes.items.map((p) => ({ ...p, events: byPass.get(p.id) ?? [] })),
        nextCursor: passes.nextCursor,
      };
    },
  };
}
