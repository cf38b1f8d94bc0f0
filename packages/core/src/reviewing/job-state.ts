import type { JobStatus } from './job-record.js';

/**
 * The job state machine's explicit moves, in one place. Claiming (queued → running), finishing
 * (running → completed/failed/budgetExceeded) and lease reclaim (running → queued) belong to the worker.
 */
export const RESTARTABLE: readonly JobStatus[] = ['failed', 'budgetHeld', 'budgetExceeded'];
export const STOPPABLE: readonly JobStatus[] = ['queued', 'running'];
export const SUPERSEDABLE: readonly JobStatus[] = ['queued', 'running'];
export const TERMINAL: readonly JobStatus[] = ['completed', 'failed', 'stopped', 'superseded', 'cancelled'];
