import type { JobCodeReview, JobRepository, JobRevision } from './job-record.js';

/** The same pull request, however its host URL was written. */
export function pullRequestKey(
  provider: string,
  hostBaseUrl: string,
  repository: JobRepository,
  codeReview: JobCodeReview,
): string {
  const host = hostBaseUrl.trim().toLowerCase().replace(/\/+$/, '');
  return [provider, host, repository.externalRepositoryId.toLowerCase(), codeReview.number].join('|');
}

/**
 * The revision a job is about. Without an explicit revision every submission for the pull request
 * shares one key, so a second one cannot run beside the first (the spec's collapsing rule).
 */
export function revisionKey(prKey: string, revision: JobRevision | null): string {
  return revision ? `${prKey}|${revision.headSha.toLowerCase()}:${revision.baseSha.toLowerCase()}` : `${prKey}|*`;
}
