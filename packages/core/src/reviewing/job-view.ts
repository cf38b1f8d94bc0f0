import type { ReviewJobRecord } from './job-record.js';

type Result = { summary: string | null; findings: unknown[]; coverage: unknown };

/** What the job runs under, as snapshotted from the configuration that queued it. */
function configurationOf(job: ReviewJobRecord) {
  const o = job.options;
  return {
    configurationId: o.configurationId ?? null,
    reviewTemperature: o.reviewTemperature ?? null,
    knowledgeSourceScopeMode: o.knowledgeSourceScopeMode ?? null,
    knowledgeSourceIds: o.knowledgeSourceIds ?? [],
  };
}

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
    configuration: configurationOf(job),
    result: (job.result as Result | null) ?? null,
    usage: job.usage,
    error: job.error,
  };
}

/**
 * As listed: the findings and the coverage's per-file entries are left out (their counts stay), so
 * a page of jobs stays small whatever the size of the pull requests.
 */
export function jobSummaryView(job: ReviewJobRecord) {
  const { result, ...rest } = jobStatusView(job);
  return {
    ...rest,
    result: result
      ? { summary: result.summary, coverage: withoutFiles(result.coverage), findingCount: result.findings.length }
      : null,
  };
}

function withoutFiles(coverage: unknown): unknown {
  if (typeof coverage !== 'object' || coverage === null || !('files' in coverage)) return coverage;
  const { files: _files, ...rest } = coverage as Record<string, unknown>;
  return rest;
}

/** A job as its status is read (the stored result is the engine's, kept as written). */
export type JobStatusBody = ReturnType<typeof jobStatusView>;
/** A job as listed. */
export type JobSummaryBody = ReturnType<typeof jobSummaryView>;
