import type { JobStatus } from './job-record.js';

/**
 * The job state machine's explicit moves, in one place. Claiming (queued → running), finishing
 * (running → completed/failed/cancelled/superseded/budgetHeld/budgetExceeded) and lease reclaim
 * (running → queued) belong to the worker. The budget states end a run as `failed` does: only an
 * explicit restart moves them on.
 */
export const RESTARTABLE: readonly JobStatus[] = ['failed', 'budgetHeld', 'budgetExceeded'];
export const STOPPABLE: readonly JobStatus[] = ['queued', 'running'];
export const SUPERSEDABLE: readonly JobStatus[] = ['queued', 'running'];
export const TERMINAL: readonly JobStatus[] = [
  'completed',
  'failed',
  'stopped',
  'superseded',
  'cancelled',
  'budgetHeld',
  'budgetExceeded',
];
