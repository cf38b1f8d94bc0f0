import type { Clock } from '../../kernel/index.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';
import type { RecordedEvent, RecordedPass } from '../protocol/recorded-protocol.js';

/** What a review recorded, in the records the service stores: passes in start order, events in order. */
export interface ReviewProtocol {
  passes: RecordedPass[];
  events: RecordedEvent[];
}

/**
 * A protocol kept in memory, for reviews without a database: the same passes and events the
 * service's writer stores, so the answer to "why was this not posted?" reads the same either way.
 */
export function createMemoryProtocol(options: {
  jobId: string;
  clock: Clock;
  newId: () => string;
}): ProtocolWriter & ReviewProtocol {
  const passes: RecordedPass[] = [];
  const events: RecordedEvent[] = [];
  const now = () => options.clock.now().toISOString();
  return {
    passes,
    events,
    async pass(stage, label, filePath) {
      const id = options.newId();
      const record: RecordedPass = {
        id,
        jobId: options.jobId,
        attempt: 1,
        stage,
        label,
        filePath: filePath ?? null,
        startedAt: now(),
        completedAt: null,
        outcome: 'running',
        inputTokens: 0,
        cachedInputTokens: 0,
        outputTokens: 0,
      };
      passes.push(record);
      return {
        id,
        event(e) {
          events.push({
            id: options.newId(),
            passId: id,
            jobId: options.jobId,
            sequence: events.length + 1,
            kind: e.kind,
            name: e.name,
            eventCategory: e.eventCategory,
            occurredAt: now(),
            durationMs: e.durationMs ?? null,
            inputTokens: e.inputTokens ?? null,
            outputTokens: e.outputTokens ?? null,
            body: e.body ?? null,
          });
        },
        async complete(outcome, tokens = {}) {
          Object.assign(record, {
            outcome,
            completedAt: now(),
            inputTokens: tokens.inputTokens ?? 0,
            cachedInputTokens: tokens.cachedInputTokens ?? 0,
            outputTokens: tokens.outputTokens ?? 0,
          });
        },
      };
    },
  };
}
