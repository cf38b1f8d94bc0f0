import { type MarginClient, WaitTimeoutError } from '@margin/sdk-client';
import type { ProvisionOptions, ReviewReport, ReviewTarget } from './provision-options.js';
import { allItems, type Steps } from './steps.js';

/**
 * Submits the pull request's revision for review unless a job for that revision exists, then waits
 * for the job and reports where it ended, failure included. A finished job is not submitted again:
 * restarting a failed one is `reviewing.restartReviewJob`, a decision for a person.
 */
export async function reviewOnce(
  margin: MarginClient,
  clientId: string,
  scm: ProvisionOptions['sourceControl'],
  target: ReviewTarget,
  wait: ProvisionOptions['wait'],
  steps: Steps,
): Promise<ReviewReport> {
  const label = `pull request #${target.codeReview.number} at ${target.reviewRevision.headSha.slice(0, 7)}`;
  const jobs = await allItems((cursor) =>
    margin.reviewing.listReviewJobs(clientId, {
      repositoryId: target.repository.externalRepositoryId,
      pullRequestId: target.codeReview.number,
      limit: 200,
      cursor,
    }),
  );
  const head = target.reviewRevision.headSha.toLowerCase();
  const existing = jobs.find((j) => j.reviewRevision?.headSha.toLowerCase() === head);

  let jobId: string;
  if (existing) {
    jobId = existing.jobId;
    steps.record('review job', jobId, 'unchanged', `${label} was submitted before (${existing.status})`);
  } else {
    const accepted = await margin.reviewing.submitReviewJob(clientId, {
      provider: scm.providerFamily,
      hostBaseUrl: scm.hostBaseUrl,
      ...target,
    });
    jobId = accepted.jobId;
    steps.record('review job', jobId, 'created', `${label} queued`);
  }

  const final = await waitForEnd(margin, jobId, wait);
  return { jobId, submitted: !existing, status: final.status, error: final.error };
}

/** The job's final status, or its current one when the wait runs out (the job goes on regardless). */
async function waitForEnd(margin: MarginClient, jobId: string, wait: ProvisionOptions['wait']) {
  try {
    return await margin.reviewing.waitForJob(jobId, {
      intervalMs: wait?.intervalMs ?? 1000,
      timeoutMs: wait?.timeoutMs ?? 60_000,
    });
  } catch (error) {
    if (error instanceof WaitTimeoutError) return margin.reviewing.getReviewJobStatus(jobId);
    throw error;
  }
}
