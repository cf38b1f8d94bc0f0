import type { JobCodeReview, JobRepository, JobRevision } from './job-record.js';

/**
 * The same pull request for the same client, however its host URL was written. Clients are apart:
 * two clients set up on one pull request each review it, and neither's jobs hold up the other's.
 */
export function pullRequestKey(
  clientId: string,
  provider: string,
  hostBaseUrl: string,
  repository: JobRepository,
  codeReview: JobCodeReview,
): string {
  const host = hostBaseUrl.trim().toLowerCase().replace(/\/+$/, '');
  return [clientId, provider, host, repository.externalRepositoryId.toLowerCase(), codeReview.number].join('|');
}

/**
 * The revision a job is about. Without an explicit revision every submission for the pull request
 * shares one key, so a second one cannot run beside the first (the spec's collapsing rule).
 */
export function revisionKey(prKey: string, revision: JobRevision | null): string {
  return revision ? `${prKey}|${revision.headSha.toLowerCase()}:${revision.baseSha.toLowerCase()}` : `${prKey}|*`;
}
