/**
 * Spend of reviews still running, shared by every host: what a running job has claimed for the
 * calls it is about to make (`reservedMicroUsd`) and what its finished calls cost so far
 * (`spentMicroUsd`). The ledger learns a job's calls only when the job ends; until then this is how
 * another host sees them. The row goes in the transaction that writes the job's ledger events.
 */
export interface InFlightSpendRecord {
  jobId: string;
  clientId: string;
  pullRequestKey: string;
  reservedMicroUsd: number;
  spentMicroUsd: number;
  updatedAt: string;
}

export interface InFlightSpendRepository {
  /** Adds the deltas to the job's row, creating it at zero first. */
  adjust(
    key: { jobId: string; clientId: string; pullRequestKey: string },
    delta: { reservedMicroUsd: number; spentMicroUsd: number },
    at: string,
  ): Promise<void>;
  /** Reserved plus spent, in whole micro-dollars: of the client's running jobs, and of those reviewing one pull request. */
  totals(clientId: string, pullRequestKey: string): Promise<{ clientMicroUsd: number; pullRequestMicroUsd: number }>;
  remove(jobId: string): Promise<void>;
}
