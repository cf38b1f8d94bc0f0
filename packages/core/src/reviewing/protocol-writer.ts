import type { EventCategory, PassOutcome, ProtocolEventRecord } from './protocol-record.js';
import type { ReviewingDeps } from './reviewing-deps.js';

export interface ProtocolEventInput {
  kind: string;
  name: string;
  eventCategory: EventCategory;
  durationMs?: number | undefined;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  body?: unknown;
}

export interface PassTokens {
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
}

/** One pass of the protocol: events are buffered and written when the pass completes. */
export interface ProtocolPass {
  readonly id: string;
  event(event: ProtocolEventInput): void;
  complete(outcome: Exclude<PassOutcome, 'running'>, tokens?: PassTokens): Promise<void>;
}

/**
 * What every stage of a review writes to, so "why was this finding not posted?" always has an
 * answer: a pass per stage (or file) with categorised events and token counts.
 */
export interface ProtocolWriter {
  pass(stage: string, label: string, filePath?: string): Promise<ProtocolPass>;
}

// Events of later attempts sort after earlier ones without reading the last sequence back.
const SEQUENCE_PER_ATTEMPT = 10_000_000;

export function createProtocolWriter(
  deps: Pick<ReviewingDeps, 'storage' | 'clock' | 'ids'>,
  jobId: string,
  attempt: number,
): ProtocolWriter {
  let sequence = attempt * SEQUENCE_PER_ATTEMPT;
  return {
    async pass(stage, label, filePath) {
      const id = deps.ids.uuid();
      await deps.storage.protocol.insertPass({
        id,
        jobId,
        attempt,
        stage,
        label,
        filePath: filePath ?? null,
        startedAt: deps.clock.now().toISOString(),
        completedAt: null,
        outcome: 'running',
        inputTokens: 0,
        cachedInputTokens: 0,
        outputTokens: 0,
      });
      const buffered: ProtocolEventRecord[] = [];
      return {
        id,
        event(e) {
          buffered.push({
            id: deps.ids.uuid(),
            passId: id,
            jobId,
            sequence: ++sequence,
            kind: e.kind,
            name: e.name,
            eventCategory: e.eventCategory,
            occurredAt: deps.clock.now().toISOString(),
            durationMs: e.durationMs ?? null,
            inputTokens: e.inputTokens ?? null,
            outputTokens: e.outputTokens ?? null,
            body: e.body ?? null,
          });
        },
        async complete(outcome, tokens = {}) {
          await deps.storage.protocol.insertEvents(buffered.splice(0));
          await deps.storage.protocol.completePass(id, {
            completedAt: deps.clock.now().toISOString(),
            outcome,
            inputTokens: tokens.inputTokens ?? 0,
            cachedInputTokens: tokens.cachedInputTokens ?? 0,
            outputTokens: tokens.outputTokens ?? 0,
          });
        },
      };
    },
  };
}
