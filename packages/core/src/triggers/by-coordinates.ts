import type { Actor } from '../kernel/index.js';
import { type ErrorCode, MarginError } from '../kernel/index.js';
import { announceQueued, ONE_AT_A_TIME, requestReview } from '../reviewing/index.js';
import { type OpenedScmScope, scopeWithConnection } from '../scm/index.js';
import type { PullRequestSnapshot } from '../scm-provider/index.js';
import { filtersCoverRepository, outsideConfiguredOwner, sameRepositoryId } from './repo-filters.js';
import { type ByCoordinatesOutcome, SubmitByCoordinatesInput } from './schemas.js';
import { reviewRequestFor } from './trigger-config.js';
import type { TriggerConfigurationBase } from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';

/**
 * The outcome of a by-coordinates request, as data: `submitted` with its job, or a refusal with the
 * error code that says how the host answers it (`ERROR_STATUS`, as for thrown errors).
 */
export type ByCoordinatesAnswer = { outcome: 'submitted'; jobId: string } | ByCoordinatesRefusal;

export interface ByCoordinatesRefusal {
  outcome: Exclude<ByCoordinatesOutcome, 'submitted'>;
  code: ErrorCode;
  error: string;
  jobId?: string;
  reason?: string;
  capability?: string;
  /** For the host's log on `submissionFailed`; never sent. */
  cause?: unknown;
}

const answer = (
  outcome: Exclude<ByCoordinatesOutcome, 'submitted'>,
  code: ErrorCode,
  error: string,
  extra: { jobId?: string; reason?: string; capability?: string } = {},
): ByCoordinatesRefusal => ({ outcome, ...extra, error, code });

const NOT_COVERED =
  'No crawl or webhook configuration of this client covers these coordinates (scope path, project key and repository).';

/**
 * `POST /clients/{clientId}/reviewing/jobs/by-coordinates` (ClientUser): a review of a pull request
 * named by its coordinates, under the crawl or webhook configuration that covers them. The revision
 * is read from the provider on every request, so the same call serves first reviews and re-reviews.
 * Every answer but a validation failure carries a named outcome.
 */
export async function submitByCoordinates(
  deps: TriggersDeps,
  actor: Actor,
  clientId: string,
  input: unknown,
): Promise<ByCoordinatesAnswer> {
  const req = SubmitByCoordinatesInput.parse(input);
  try {
    await deps.authz.requireClient(actor, 'reviewing.submitByCoordinates', clientId);
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'forbidden') {
      return answer('notAuthorized', 'forbidden', error.message);
    }
    const reason = MarginError.isInstance(error) ? error.details.reason : undefined;
    if (reason === 'clientDeactivated' || reason === 'tenantDeactivated') {
      return answer('notSubmittable', 'conflict', (error as MarginError).message, { reason });
    }
    throw error;
  }

  const config = await coveringConfiguration(deps, clientId, req);
  if (!config) return answer('notAuthorized', 'forbidden', NOT_COVERED);

  let opened: OpenedScmScope;
  try {
    opened = await scopeWithConnection(deps, clientId, config.organizationScopeId);
  } catch (error) {
    if (!MarginError.isInstance(error)) throw error;
    return answer('notSubmittable', 'conflict', `The configured source scope no longer resolves: ${error.message}`, {
      reason: 'scopeUnresolvable',
    });
  }
  if (opened.scope.scopePath !== config.providerScopePath) {
    return answer('notSubmittable', 'conflict', 'The configured source scope has moved to another path.', {
      reason: 'scopeUnresolvable',
    });
  }

  let pr: PullRequestSnapshot;
  try {
    pr = await opened.provider.getPullRequest({
      scopePath: opened.scope.scopePath,
      projectKey: config.providerProjectKey,
      repositoryId: req.repositoryId,
      pullRequestId: req.pullRequestId,
    });
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'not_found') {
      return answer('pullRequestNotFound', 'not_found', 'The provider reports no such pull request.');
    }
    const detail = MarginError.isInstance(error) ? error.message : 'the call failed';
    return answer('revisionUnresolvable', 'provider_unavailable', `The provider could not be asked: ${detail}`);
  }
  const outside = outsideConfiguredOwner(opened.family, config, pr.repositoryOwner);
  if (outside) return answer('notAuthorized', 'forbidden', outside);
  if (pr.status !== 'open') {
    return answer('notSubmittable', 'conflict', `The pull request is ${pr.status}.`, { reason: pr.status });
  }
  if (!pr.revision.headSha || !pr.revision.baseSha) {
    return answer('revisionUnresolvable', 'provider_unavailable', 'The provider answered without commits.');
  }

  // The provider's own form of the repository id, as webhook and crawl jobs carry it, so the same
  // revision has one key whichever trigger asks for it.
  try {
    const result = await requestReview(deps, reviewRequestFor(config, opened, pr, 'byCoordinates', actor.userId));
    if (!('refused' in result)) {
      announceQueued(deps, result.queued);
      return { outcome: 'submitted', jobId: result.queued.id };
    }
    switch (result.refused) {
      case 'duplicateActiveJob':
        return answer('duplicateActiveJob', 'conflict', 'A review of this revision is already queued or running.', {
          jobId: result.jobId,
        });
      case 'blocked':
        return answer('notSubmittable', 'conflict', `This pull request is blocked: ${result.reason}`, {
          reason: 'blocked',
        });
      case 'oneAtATime':
        return answer('notSubmittable', 'license_required', ONE_AT_A_TIME, {
          reason: 'oneAtATime',
          capability: 'parallel-review-execution',
        });
      case 'alreadyReviewed':
        // Explicit requests may review a revision again; kept for completeness of the refusals.
        return answer('notSubmittable', 'conflict', 'This revision was already reviewed.', {
          reason: 'alreadyReviewed',
        });
    }
  } catch (error) {
    return { ...answer('submissionFailed', 'internal', 'Queueing the review failed internally.'), cause: error };
  }
}

/**
 * The configuration whose coordinates match exactly and whose repository list (if any) names the
 * repository. Active ones first, then those naming the repository over whole-scope ones, then oldest.
 */
async function coveringConfiguration(
  deps: TriggersDeps,
  clientId: string,
  req: { providerScopePath: string; providerProjectKey: string; repositoryId: string },
): Promise<TriggerConfigurationBase | undefined> {
  const [webhooks, crawls] = await Promise.all([
    deps.storage.webhookConfigurations.findByCoordinates(clientId, req.providerScopePath, req.providerProjectKey),
    deps.storage.crawlConfigurations.findByCoordinates(clientId, req.providerScopePath, req.providerProjectKey),
  ]);
  const covering = [...webhooks, ...crawls].filter((c) => filtersCoverRepository(c.repoFilters, req.repositoryId));
  const rank = (c: TriggerConfigurationBase) =>
    (c.isActive ? 0 : 2) +
    (c.repoFilters.some((f) => sameRepositoryId(f.canonicalSourceRef.value, req.repositoryId)) ? 0 : 1);
  return covering.sort((a, b) => rank(a) - rank(b) || a.createdAt.localeCompare(b.createdAt))[0];
}
