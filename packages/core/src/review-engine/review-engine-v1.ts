import type { JobUsage, ReviewJobRecord } from '../reviewing/job-record.js';
import type { ProtocolWriter } from '../reviewing/protocol-writer.js';

export interface ReviewContext {
  /** Aborted when the job is stopped, superseded, loses its lease, or the host shuts down. */
  signal: AbortSignal;
  /** The protocol of this attempt; every stage writes its passes and events here. */
  protocol: ProtocolWriter;
  /** Progress shown in the job status; saved with the next lease heartbeat. */
  reportProgress(progress: { filesTotal: number; filesDone: number }): void;
}

export interface ReviewOutcome {
  /** `cancelled`: the pull request was closed, merged or abandoned, so nothing was reviewed. */
  status: 'completed' | 'cancelled';
  result: { summary: string | null; findings: unknown[]; coverage: unknown };
  usage: JobUsage | null;
}

/**
 * The seam between the job queue and the review pipeline: the worker hands each claimed job to the
 * engine and records what comes back. A thrown error fails the job with the error's message.
 */
export interface ReviewEngineV1 {
  readonly specificationVersion: 'v1';
  review(job: ReviewJobRecord, context: ReviewContext): Promise<ReviewOutcome>;
}
