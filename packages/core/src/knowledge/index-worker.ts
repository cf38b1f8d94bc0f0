import { type IndexOutcome, indexBranch } from './index-branch.js';
import type { IndexJobRecord } from './index-records.js';
import type { KnowledgeDeps } from './knowledge-deps.js';

/** What a host's index worker calls: claim with a lease, run, heartbeat, give back. */
export interface KnowledgeIndexWorkerUseCases {
  claimIndexJobs(input: { owner: string; capacity: number; leaseMs: number }): Promise<IndexJobRecord[]>;
  /** Runs the job and ends it (or queues it again when a refresh was asked for meanwhile). */
  runIndexJob(job: IndexJobRecord, run: { owner: string; signal: AbortSignal }): Promise<IndexOutcome>;
  renewIndexJob(jobId: string, owner: string, leaseMs: number): Promise<boolean>;
  releaseIndexJob(jobId: string, owner: string): Promise<void>;
}

export function createKnowledgeIndexWorker(deps: KnowledgeDeps): KnowledgeIndexWorkerUseCases {
  const until = (leaseMs: number) => new Date(deps.clock.now().getTime() + leaseMs).toISOString();
  return {
    claimIndexJobs: ({ owner, capacity, leaseMs }) =>
      deps.storage.knowledgeIndexJobs.claim({
        owner,
        capacity,
        now: deps.clock.now().toISOString(),
        leaseExpiresAt: until(leaseMs),
      }),
    async runIndexJob(job, run) {
      const outcome = await indexBranch(deps, job, { signal: run.signal });
      await deps.storage.knowledgeIndexJobs.complete(job.id, run.owner);
      return outcome;
    },
    renewIndexJob: (jobId, owner, leaseMs) => deps.storage.knowledgeIndexJobs.renew(jobId, owner, until(leaseMs)),
    releaseIndexJob: (jobId, owner) => deps.storage.knowledgeIndexJobs.release(jobId, owner),
  };
}
