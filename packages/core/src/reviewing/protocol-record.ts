import type { Page, PageRequest } from '../kernel/index.js';

export const EVENT_CATEGORIES = [
  'ai-call',
  'tool-call',
  'scm-call',
  'planning',
  'filtering',
  'duplicate-suppression',
  'memory',
  'publication',
  'operational',
] as const;
export type EventCategory = (typeof EVENT_CATEGORIES)[number];

export type PassOutcome = 'running' | 'succeeded' | 'failed' | 'skipped';

/**
 * Where a review engine records the head it is reviewing once it has read the pull request: an
 * event of this name (body `{ headSha }`) in a pass of this stage, one per attempt. A submission
 * naming that head then leaves the running review alone instead of superseding it.
 */
export const RESOLVED_HEAD_EVENT = { stage: 'resolve', name: 'pullRequest.read', eventCategory: 'scm-call' } as const;

/** One stage (or one file within a stage) of one attempt of a review. */
export interface ProtocolPassRecord {
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

export interface ProtocolEventRecord {
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
