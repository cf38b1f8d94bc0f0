import type { ReviewJobRecord } from './job-record.js';

type Result = { summary: string | null; findings: unknown[]; coverage: unknown };

/** The job status body (decisions.md, Reviewing). */
export function jobStatusView(job: ReviewJobRecord) {
  return {
    jobId: job.id,
    clientId: job.clientId,
    status: job.status,
    trigger: job.trigger,
    provider: job.provider,
    hostBaseUrl: job.hostBaseUrl,
    repository: job.repository,
    codeReview: job.codeReview,
    reviewRevision: job.reviewRevision,
    attempt: job.attempt,
    submittedAt: job.submittedAt,
    startedAt: job.startedAt,
    completedAt: job.completedAt,
    progress: job.progress,
    result: (job.result as Result | null) ?? null,
    usage: job.usage,
    error: job.error,
  };
}

/** As listed: the findings are left out, their count stays. */
export function jobSummaryView(job: ReviewJobRecord) {
  const { result, ...rest } = jobStatusView(job);
  return {
    ...rest,
    result: result
      ? { summary: result.summary, coverage: result.coverage, findingCount: result.findings.length }
      : null,
  };
}
