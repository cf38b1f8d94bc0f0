import type { Page, PageRequest } from '../kernel/index.js';
import type { EventCategory, RecordedEvent, RecordedPass } from '../review-engine/index.js';

/** A pass of the engine's protocol, as stored. */
export type ProtocolPassRecord = RecordedPass;

/** An event of the engine's protocol, as stored. */
export type ProtocolEventRecord = RecordedEvent;

export interface ProtocolRepository {
  insertPass(pass: ProtocolPassRecord): Promise<void>;
  completePass(
    id: string,
    patch: Pick<ProtocolPassRecord, 'completedAt' | 'outcome' | 'inputTokens' | 'cachedInputTokens' | 'outputTokens'>,
  ): Promise<void>;
  insertEvents(events: readonly ProtocolEventRecord[]): Promise<void>;
  /**
   * A page of the job's passes in start order, each with its events in order (optionally one
   * category, without bodies).
   */
  read(
    jobId: string,
    options: { eventCategory?: EventCategory | undefined; includeBodies: boolean; page: PageRequest },
  ): Promise<Page<ProtocolPassRecord & { events: ProtocolEventRecord[] }>>;
}
