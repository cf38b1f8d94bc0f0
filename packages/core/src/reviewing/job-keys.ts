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
 * The revision a job is about: the whole revision (head, base and the provider's revision id when
 * there is one), since a duplicate is one whose whole revision matches. Without an explicit revision
 * every submission for the pull request shares one key (`|*`, the spec's collapsing rule).
 */
export function revisionKey(prKey: string, revision: JobRevision | null): string {
  if (!revision) return `${prKey}|*`;
  const commits = `${prKey}|${revision.headSha.toLowerCase()}:${revision.baseSha.toLowerCase()}`;
  return revision.providerRevisionId ? `${commits}:${revision.providerRevisionId}` : commits;
}
