import type { JobStatus } from './job-record.js';

/**
 * The job state machine's explicit moves, in one place. Claiming (queued → running), finishing
 * (running → completed/failed/cancelled/superseded/budgetHeld/budgetExceeded) and lease reclaim
 * (running → queued) belong to the worker. The budget states end a run as `failed` does: only an
 * explicit restart moves them on.
 */
export const RESTARTABLE: readonly JobStatus[] = ['failed', 'budgetHeld', 'budgetExceeded'];
/**
 * A revision whose job ended in one of these is not queued again by automatic triggers (webhook,
 * crawl): completed or failed, or held or stopped by a spend cap, which every crawl round would
 * otherwise spend again. Only an explicit submission or a restart reviews it again.
 */
export const RAN_ITS_COURSE: readonly JobStatus[] = ['completed', 'failed', 'budgetHeld', 'budgetExceeded'];
export const STOPPABLE: readonly JobStatus[] = ['queued', 'running'];
export const SUPERSEDABLE: readonly JobStatus[] = ['queued', 'running'];
