/** What an event is about; every event names one, so the protocol can be read by concern. */
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
