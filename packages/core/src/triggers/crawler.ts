import { MarginError } from '../kernel/index.js';
import { isCapabilityAvailable } from '../licensing/index.js';
import { announceQueued, requestReview } from '../reviewing/index.js';
import { type OpenedScmScope, scopeWithConnection } from '../scm/index.js';
import type { PullRequestRef, PullRequestSummary, ScmProviderFamilyV1 } from '../scm-provider/index.js';
import { addSeconds } from './crawl-configurations.js';
import { scanForMentions } from './mention-scan.js';
import { matchRepoFilters, outsideConfiguredOwner, repositoriesToList } from './repo-filters.js';
import { reviewRequestFor } from './trigger-config.js';
import type { CrawlConfigurationRecord, CrawlCounts, CrawlFinish } from './trigger-records.js';
import type { TriggersDeps } from './triggers-deps.js';

/** At most this many open pull requests are looked at per configuration and crawl. */
export const MAX_PULL_REQUESTS_PER_CRAWL = 1000;

export interface CrawlRequest {
  owner: string;
  leaseMs: number;
  limit: number;
}

export interface CrawlRoundResult {
  /** True while `crawl-configs` is unavailable: configurations stay stored and nothing is crawled. */
  idle: boolean;
  crawled: Array<{ configurationId: string; outcome: CrawlFinish['outcome']; counts: CrawlCounts | null }>;
}

/**
 * One round of the crawl scheduler: leases the active configurations that are due (so no two hosts
 * crawl one at once), lists their open pull requests through the adapter, and queues reviews of the
 * in-scope revisions not reviewed yet. Each crawl schedules the next `crawlIntervalSeconds` later.
 */
export async function crawlDueConfigurations(deps: TriggersDeps, request: CrawlRequest): Promise<CrawlRoundResult> {
  if (!(await isCapabilityAvailable(deps, 'crawl-configs'))) return { idle: true, crawled: [] };
  const now = deps.clock.now().toISOString();
  const claimed = await deps.storage.crawlConfigurations.claimDue({ ...request, now });
  const crawled: CrawlRoundResult['crawled'] = [];
  for (const config of claimed) {
    const finish = await crawlOne(deps, config);
    await deps.storage.crawlConfigurations.finishCrawl(config.id, request.owner, finish);
    crawled.push({ configurationId: config.id, outcome: finish.outcome, counts: finish.counts });
  }
  return { idle: false, crawled };
}

async function crawlOne(deps: TriggersDeps, config: CrawlConfigurationRecord): Promise<CrawlFinish> {
  const finish = (outcome: CrawlFinish['outcome'], error: string | null, counts: CrawlCounts | null): CrawlFinish => {
    const at = deps.clock.now().toISOString();
    return { at, nextCrawlAt: addSeconds(at, config.crawlIntervalSeconds), outcome, error, counts };
  };
  const counts: CrawlCounts = { pullRequestsSeen: 0, inScope: 0, queued: 0, skipped: 0 };
  try {
    const opened = await scopeWithConnection(deps, config.clientId, config.organizationScopeId);
    // Mentions are scanned only for a connection people can mention (one with a reviewer identity).
    const mentionable = (await deps.storage.reviewerIdentities.findByConnection(opened.connection.id)) !== undefined;
    const repositories = repositoriesToList(config.repoFilters) ?? [undefined];
    const listed = new Set<string>();
    for (const repositoryId of repositories) {
      const listing = opened.provider.listOpenPullRequests({
        scopePath: opened.scope.scopePath,
        projectKey: config.providerProjectKey,
        repositoryId,
      });
      for await (const pr of listing) {
        if (counts.pullRequestsSeen >= MAX_PULL_REQUESTS_PER_CRAWL) break;
        counts.pullRequestsSeen++;
        listed.add(pr.ref.repositoryId);
        if (!inScope(opened.family, config, pr)) continue;
        counts.inScope++;
        const result = await requestReview(deps, reviewRequestFor(config, opened, pr, 'crawl', null));
        if ('refused' in result) {
          counts.skipped++;
        } else {
          counts.queued++;
          announceQueued(deps, result.queued);
        }
        if (mentionable) await scanQuietly(deps, config, opened, pr.ref);
      }
    }
    for (const repositoryId of listed) await readTrackedHeads(deps, config, opened, repositoryId);
    return finish('succeeded', null, counts);
  } catch (error) {
    const message = MarginError.isInstance(error) ? error.message : 'An internal error occurred.';
    return finish('failed', message.slice(0, 1000), counts);
  }
}

/**
 * The heads of the branches the client's knowledge sources track in a repository the crawl listed,
 * one provider call per tracked branch, so code knowledge can mark indexes stale and refresh
 * `branchUpdate` branches. Pull request listings do not carry the target branch's current head (a
 * base SHA is where the pull request last synced), hence the read. Knowledge never fails a crawl.
 */
async function readTrackedHeads(
  deps: TriggersDeps,
  config: CrawlConfigurationRecord,
  opened: OpenedScmScope,
  repositoryId: string,
): Promise<void> {
  const seen = deps.knowledgeHeadSeen;
  const getBranchHead = opened.provider.getBranchHead?.bind(opened.provider);
  if (!seen || !getBranchHead) return;
  // Knowledge only helps reviews: a head that cannot be read now is read again by the next crawl.
  const quietly = (work: () => Promise<unknown>) => work().catch(() => undefined);
  await quietly(async () => {
    for (const source of await deps.storage.knowledgeSources.listForRepository(config.clientId, repositoryId)) {
      if (source.sourceKind !== 'repository' || source.organizationScopeId !== config.organizationScopeId) continue;
      const ref = {
        scopePath: opened.scope.scopePath,
        projectKey: source.providerProjectKey,
        repositoryId: source.canonicalSourceRef.value,
      };
      for (const { branchName } of source.trackedBranches) {
        await quietly(async () => {
          const headSha = await getBranchHead(ref, branchName);
          if (headSha) await seen({ clientId: config.clientId, repositoryId, branchName, headSha });
        });
      }
    }
  });
}

/**
 * One pull request's threads that cannot be read (a provider hiccup, a permission the token lacks)
 * leave its mentions for the next crawl; the crawl itself goes on.
 */
async function scanQuietly(
  deps: TriggersDeps,
  config: CrawlConfigurationRecord,
  opened: OpenedScmScope,
  ref: PullRequestRef,
): Promise<void> {
  try {
    await scanForMentions(deps, config, opened, {
      ...ref,
      scopePath: opened.scope.scopePath,
      projectKey: config.providerProjectKey,
    });
  } catch (error) {
    if (!MarginError.isInstance(error)) throw error;
  }
}

function inScope(family: ScmProviderFamilyV1, config: CrawlConfigurationRecord, pr: PullRequestSummary): boolean {
  if (outsideConfiguredOwner(family, config, pr.repositoryOwner)) return false;
  if (pr.status !== 'open') return false;
  if (!pr.revision.headSha || !pr.revision.baseSha) return false;
  return matchRepoFilters(config.repoFilters, pr.ref.repositoryId, pr.targetBranch).inScope;
}
