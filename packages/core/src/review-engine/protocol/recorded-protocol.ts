import type { EventCategory, PassOutcome } from './vocabulary.js';

/**
 * One stage (or one file within a stage) of one attempt of a review, as a protocol writer records
 * it: the service stores these (`ProtocolPassRecord`), reviews without a database keep them in memory.
 */
export interface RecordedPass {
  id: string;
  jobId: string;
  attempt: number;
  stage: string;
  label: string;
  filePath: string | null;
  startedAt: string;
  completedAt: string | null;
  outcome: PassOutcome;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

/** One event of a pass, as a protocol writer records it (stored as `ProtocolEventRecord`). */
export interface RecordedEvent {
  id: string;
  passId: string;
  jobId: string;
  /** Order within the job. */
  sequence: number;
  kind: string;
  name: string;
  eventCategory: EventCategory;
  occurredAt: string;
  durationMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** Prompt, answer, tool input/output, reason: whatever explains the event. */
  body: unknown | null;
}
