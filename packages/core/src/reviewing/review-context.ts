import { type ResolvedPurpose, resolvePurpose } from '../ai/index.js';
import type { AiPurpose } from '../ai-model/index.js';
import { MarginError } from '../kernel/index.js';
import type {
  CoverageFile,
  FindingStore,
  KnownFinding,
  ProtocolWriter,
  PublicationLedger,
  ReviewBaseline,
  ReviewContext,
  ReviewMemory,
  ReviewModel,
  ReviewScm,
  SharedSpendV1,
} from '../review-engine/index.js';
import type { ProviderConnectionRecord } from '../scm/index.js';
import { connectScmProvider, scopeWithConnection } from '../scm/index.js';
import type { StoredFindingRecord } from './finding-record.js';
import type { ReviewJobRecord } from './job-record.js';
import type { ReviewingDeps } from './reviewing-deps.js';

/**
 * What the worker hands the engine for one job. The pull request is reached through the job's own
 * connection: a trigger job's configuration names its scope, an API submission is matched to the
 * client's active connection of that provider family on the same host. Credentials only ever go to
 * the stored connection's host, never to a host a job names.
 */
export function createReviewContext(
  deps: ReviewingDeps,
  job: ReviewJobRecord,
  run: {
    signal: AbortSignal;
    protocol: ProtocolWriter;
    onProgress(progress: ReviewJobRecord['progress']): void;
    /** The `budgeting` capability was available when the job started. */
    spendCapsApply: boolean;
    /** The client budget's headroom, when spend caps apply. */
    budgetCaps?: { softUsd?: number | undefined; hardUsd?: number | undefined } | undefined;
    /** The client budget's hard caps shared with the reviews running at once, when one binds. */
    sharedSpend?: SharedSpendV1 | undefined;
    /** Hears each model call as it returns. */
    onModelCall?: ReviewContext['onModelCall'];
  },
): ReviewContext {
  const models = new Map<AiPurpose, Promise<ReviewModel>>();
  let embeddings: Promise<ReviewModel | undefined> | undefined;
  let scm: Promise<ReviewScm> | undefined;
  return {
    signal: run.signal,
    protocol: run.protocol,
    reportProgress: run.onProgress,
    scm: () => {
      scm ??= jobScm(deps, job);
      return scm;
    },
    models: {
      forPurpose(purpose) {
        let found = models.get(purpose);
        if (!found) {
          found = resolvePurpose(deps, job.clientId, purpose).then((r) => reviewModelOf(purpose, r));
          models.set(purpose, found);
        }
        return found;
      },
      embeddings() {
        embeddings ??= resolvePurpose(deps, job.clientId, 'embeddingDefault').then((r) =>
          r ? reviewModelOf('embeddingDefault', r) : undefined,
        );
        return embeddings;
      },
    },
    memory: reviewMemory(deps, job),
    spendCapsApply: run.spendCapsApply,
    budgetCaps: run.budgetCaps,
    sharedSpend: run.sharedSpend,
    onModelCall: run.onModelCall,
    clock: deps.clock,
    ids: deps.ids,
    events: deps.events,
    blockedReason: async () =>
      (
        await deps.storage.blockedPullRequests.find(
          job.clientId,
          job.repository.externalRepositoryId,
          job.codeReview.number,
        )
      )?.reason,
  };
}

function reviewModelOf(purpose: AiPurpose, r: ResolvedPurpose): ReviewModel {
  return {
    purpose,
    resolvedPurpose: r.resolvedPurpose,
    connectionId: r.connectionId,
    logicalModel: r.logicalModelName,
    model: r.model,
    supportsStructuredOutput: r.configuredModel.supportsStructuredOutput,
    supportsToolUse: r.configuredModel.supportsToolUse,
    maxContextTokens: r.configuredModel.maxContextTokens,
    prices: r.prices,
    reasoningEffort: r.reasoningEffort,
  };
}

async function jobScm(deps: ReviewingDeps, job: ReviewJobRecord): Promise<ReviewScm> {
  const ref = (scopePath: string, projectKey: string) => ({
    scopePath,
    projectKey,
    repositoryId: job.repository.externalRepositoryId,
    pullRequestId: job.codeReview.number,
  });
  const configurationId = job.options.configurationId;
  if (configurationId) {
    const config = await deps.origins.find(configurationId);
    if (!config || config.clientId !== job.clientId) {
      throw MarginError.conflict(
        'The configuration that queued this review no longer exists; submit the review again.',
      );
    }
    const opened = await scopeWithConnection(deps, job.clientId, config.organizationScopeId);
    return {
      provider: opened.provider,
      pullRequest: ref(config.providerScopePath, config.providerProjectKey),
      reviewer: await reviewerOf(deps, opened.connection.id),
      hostBaseUrl: opened.connection.hostBaseUrl,
    };
  }
  const connection = await connectionForHost(deps, job);
  return {
    provider: connectScmProvider(deps, connection),
    pullRequest: ref(connection.hostBaseUrl, job.repository.ownerOrNamespace),
    reviewer: await reviewerOf(deps, connection.id),
    hostBaseUrl: connection.hostBaseUrl,
  };
}

/** The client's active connection of the job's family whose host (and path, e.g. an ADO organization) is the job's. */
async function connectionForHost(deps: ReviewingDeps, job: ReviewJobRecord): Promise<ProviderConnectionRecord> {
  const wanted = hostKey(job.hostBaseUrl);
  let cursor: string | undefined;
  let inactive: ProviderConnectionRecord | undefined;
  do {
    const page = await deps.storage.providerConnections.listForClient(job.clientId, { limit: 100, cursor });
    for (const c of page.items) {
      if (c.providerFamily !== job.provider) continue;
      const have = hostKey(c.hostBaseUrl);
      if (wanted !== have && !wanted.startsWith(`${have}/`)) continue;
      if (c.isActive) return c;
      inactive ??= c;
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (inactive) {
    throw MarginError.conflict(
      `The provider connection ${inactive.displayName} for ${job.hostBaseUrl} is inactive; activate it and restart the review.`,
    );
  }
  throw MarginError.conflict(
    `This client has no ${job.provider} provider connection for ${job.hostBaseUrl}; add one (POST /clients/${job.clientId}/provider-connections) and restart the review.`,
  );
}

/** Scheme, host and port in lower case, and the path without a trailing slash. */
function hostKey(url: string): string {
  if (!URL.canParse(url)) return url.toLowerCase();
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase();
}

async function reviewerOf(deps: ReviewingDeps, connectionId: string) {
  const identity = await deps.storage.reviewerIdentities.findByConnection(connectionId);
  return identity
    ? {
        externalUserId: identity.externalUserId,
        login: identity.login,
        displayName: identity.displayName,
        isBot: identity.isBot,
      }
    : null;
}

function reviewMemory(deps: ReviewingDeps, job: ReviewJobRecord): ReviewMemory {
  const now = () => deps.clock.now().toISOString();
  const publications: PublicationLedger = {
    list: () => deps.storage.reviewPublications.listForPullRequest(job.pullRequestKey),
    reserve: (entries) =>
      deps.storage.reviewPublications.reserve(
        entries.map((e) => ({
          ...e,
          id: deps.ids.uuid(),
          clientId: job.clientId,
          pullRequestKey: job.pullRequestKey,
          jobId: job.id,
          state: 'pending',
          providerThreadId: null,
          providerCommentId: null,
          error: null,
          createdAt: now(),
          updatedAt: now(),
        })),
      ),
    markPosted: (marker, ids) =>
      deps.storage.reviewPublications.update(job.pullRequestKey, marker, {
        state: 'posted',
        providerThreadId: ids.threadId,
        providerCommentId: ids.commentId,
        error: null,
        updatedAt: now(),
      }),
    markFailed: (marker, error) =>
      deps.storage.reviewPublications.update(job.pullRequestKey, marker, { state: 'failed', error, updatedAt: now() }),
  };
  return {
    publications,
    findings: findingStore(deps, job),
    lastReview: () => lastReview(deps, job),
    dismissals: async () =>
      (await deps.storage.dismissals.list(job.clientId)).map((d) => ({
        id: d.id,
        findingMessage: d.findingMessage,
        filePath: d.filePath,
      })),
  };
}

/** The pull request's findings across pushes, in the database. */
function findingStore(deps: ReviewingDeps, job: ReviewJobRecord): FindingStore {
  return {
    list: () => deps.storage.reviewFindings.listForPullRequest(job.pullRequestKey),
    save: async (changes) => {
      const now = deps.clock.now().toISOString();
      // Findings read from the store carry their stored fields; new ones get them here.
      const stored = (k: KnownFinding): StoredFindingRecord => {
        const before = k as Partial<StoredFindingRecord>;
        return {
          ...k,
          clientId: job.clientId,
          pullRequestKey: job.pullRequestKey,
          repositoryId: job.repository.externalRepositoryId,
          pullRequestNumber: job.codeReview.number,
          firstJobId: before.firstJobId ?? job.id,
          lastJobId: job.id,
          createdAt: before.createdAt ?? now,
          updatedAt: now,
        };
      };
      await deps.storage.reviewFindings.save({
        inserted: changes.inserted.map(stored),
        updated: changes.updated.map(stored),
      });
    },
  };
}

/** What the pull request's last completed review saw, from its stored result. */
async function lastReview(deps: ReviewingDeps, job: ReviewJobRecord): Promise<ReviewBaseline | undefined> {
  const last = await deps.storage.reviewJobs.findLastCompleted(job.pullRequestKey);
  const result = last?.result as {
    reviewedRevision?: { headSha?: string };
    coverage?: { files?: CoverageFile[] };
  } | null;
  const headSha = result?.reviewedRevision?.headSha;
  if (!headSha || !Array.isArray(result?.coverage?.files)) return undefined;
  const files = new Map<string, string>();
  for (const f of result.coverage.files) {
    if ((f.state === 'reviewed' || f.state === 'carriedForward') && f.contentKey) files.set(f.path, f.contentKey);
  }
  return { headSha, files };
}
