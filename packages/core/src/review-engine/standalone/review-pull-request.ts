import type { AiModelV1 } from '../../ai-model/index.js';
import { type Clock, type Ids, randomIds, systemClock } from '../../kernel/index.js';
import type { CommittableSuggestionSyntax, PullRequestSnapshot, Revision } from '../../scm-provider/index.js';
import { REPO_CONFIG_PATH } from '../config/repo-config.js';
import type { EngineFinding } from '../engine-finding.js';
import type { ReviewMemory } from '../memory/review-memory.js';
import { type PublishOutcome, publishReview } from '../pipeline/publish-review.js';
import type { ReviewSettings } from '../pipeline/review-settings.js';
import type { ReviewPublisher, ReviewSource } from '../pipeline/review-source.js';
import { runReview } from '../pipeline/run-review.js';
import type { JobUsage } from '../protocol/job-usage.js';
import { type ReviewResultView, resultView } from '../result-view.js';
import type { ReviewModels } from '../review-engine-v1.js';
import { type DiffSourceInput, diffReviewSource } from './diff-review-source.js';
import { createMemoryProtocol, type ReviewProtocol } from './memory-protocol.js';
import { providerMarkerMemory } from './provider-marker-memory.js';
import { isReviewModels, type ReviewModelTraits, reviewModelsOf } from './review-models.js';

export interface ReviewPullRequestInput {
  /** Where the change is read from: `scmReviewSource(provider, ref)`, a git repository, a diff. */
  source: ReviewSource;
  /** One model for every purpose (with `modelTraits`), or a model per purpose. */
  model: AiModelV1 | ReviewModels;
  /** For a single `AiModelV1`: structured output, tool use, context window, prices. */
  modelTraits?: ReviewModelTraits | undefined;
  /**
   * What the review remembers (dismissals, the publication outbox). Default: in memory, seeded from
   * Margin's hidden markers on the provider (`providerMarkerMemory`).
   */
  memory?: ReviewMemory | undefined;
  /** `.margin/config.yml` text used instead of the repository's own. */
  config?: string | undefined;
  settings?: Partial<ReviewSettings> | undefined;
  temperature?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: { filesTotal: number; filesDone: number }) => void) | undefined;
  /** Also post the threads and the summary, as the service does (outbox, hidden markers). */
  publish?:
    | {
        publisher: ReviewPublisher;
        hostBaseUrl?: string | undefined;
        /** The family's committable-suggestion syntax; without it, replacements are plain blocks. */
        suggestionSyntax?: CommittableSuggestionSyntax | undefined;
      }
    | undefined;
  /** Names the run in the protocol and the outbox; default a new id. */
  jobId?: string | undefined;
  clock?: Clock | undefined;
  ids?: Ids | undefined;
}

/** A review's outcome in the job-result shapes, with the protocol it recorded. */
export interface StandaloneReview extends ReviewResultView {
  /**
   * `cancelled`: the pull request is closed or merged, so nothing was reviewed. `budgetHeld`: even
   * the cheapest plan was estimated over `settings.spendCaps.hardUsd`, so no model was called. A
   * review the hard cap stopped is `reviewed` with `coverage.budget.stopped` (and `partial`).
   */
  status: 'reviewed' | 'cancelled' | 'superseded' | 'budgetHeld';
  reason?: string | undefined;
  usage: JobUsage;
  protocol: ReviewProtocol;
  pullRequest?: PullRequestSnapshot | undefined;
  revision?: Revision | undefined;
  /**
   * Every chunk failed: nothing here can be trusted as "no findings". The service fails such a job;
   * `everyChunkFailed(result.coverage)` is the same error.
   */
  allFailed: boolean;
  /**
   * Of the model's findings anchored on the new side, how many the model numbered right: its
   * `startLine` is the line its quote was found on. Shows whether a model's line numbers can be
   * trusted (anchoring trusts the quote either way).
   */
  anchorAgreement: { anchored: number; agreed: number };
  /** Set when `publish` was given and the review ran. */
  published?: PublishOutcome | undefined;
}

/**
 * The review engine without the service: stages resolve → summarize over any `ReviewSource`, with
 * no database and no HTTP server — the same `runReview` the service's jobs run. Nothing is posted
 * unless `publish` is given.
 */
export async function reviewPullRequest(input: ReviewPullRequestInput): Promise<StandaloneReview> {
  const clock = input.clock ?? systemClock;
  const ids = input.ids ?? randomIds;
  const jobId = input.jobId ?? ids.uuid();
  const protocol = createMemoryProtocol({ jobId, clock, newId: () => ids.uuid() });
  const memory = input.memory ?? providerMarkerMemory(input.source, jobId);
  const source = input.config === undefined ? input.source : withRepoConfig(input.source, input.config);
  const models = isReviewModels(input.model) ? input.model : reviewModelsOf(input.model, input.modelTraits);
  const signal = input.signal ?? new AbortController().signal;
  const run = await runReview({
    jobId,
    source,
    models,
    memory,
    protocol,
    clock,
    ids,
    signal,
    reportProgress: (p) => input.onProgress?.(p),
    revision: null,
    temperature: input.temperature,
    settings: input.settings,
  });
  let published: PublishOutcome | undefined;
  if (input.publish && run.status === 'reviewed' && !run.allFailed) {
    published = await publishReview(run, {
      jobId,
      publisher: input.publish.publisher,
      ledger: memory.publications,
      protocol,
      signal,
      hostBaseUrl: input.publish.hostBaseUrl,
      suggestionSyntax: input.publish.suggestionSyntax,
    });
  }
  return {
    ...resultView(run.summary, run.findings, run.coverage),
    status: run.status,
    ...(run.reason ? { reason: run.reason } : {}),
    usage: run.usage,
    protocol: { passes: protocol.passes, events: protocol.events },
    pullRequest: run.pullRequest,
    revision: run.revision,
    allFailed: run.allFailed,
    anchorAgreement: anchorAgreement(run.findings),
    ...(published ? { published } : {}),
  };
}

function anchorAgreement(findings: readonly EngineFinding[]): StandaloneReview['anchorAgreement'] {
  const anchored = findings.filter((f) => f.source === 'model' && f.anchor && f.anchor.side !== 'old');
  const agreed = anchored.filter((f) => f.proposed.startLine === f.anchor?.startLine).length;
  return { anchored: anchored.length, agreed };
}

export type ReviewDiffInput = Omit<ReviewPullRequestInput, 'source' | 'publish'> & DiffSourceInput;

/** `reviewPullRequest` over unified diff text of one or many files (no repository needed). */
export function reviewDiff(input: ReviewDiffInput): Promise<StandaloneReview> {
  const { diff, title, description, headSha, baseSha, ...rest } = input;
  return reviewPullRequest({ ...rest, source: diffReviewSource({ diff, title, description, headSha, baseSha }) });
}

/**
 * The repository's `.margin/config.yml` replaced by the given text (read from the target branch
 * only); everything else, comparing commits for incremental reviews included, is the source's.
 */
export function withRepoConfig(source: ReviewSource, text: string): ReviewSource {
  const compareCommits = source.compareCommits?.bind(source);
  return {
    ...(compareCommits ? { compareCommits } : {}),
    readsFiles: source.readsFiles,
    getPullRequest: (o) => source.getPullRequest(o),
    listChangedFiles: (r, o) => source.listChangedFiles(r, o),
    getFileDiff: (f, r, o) => source.getFileDiff(f, r, o),
    listThreads: (o) => source.listThreads(o),
    getFileContent: async (path, version, options) =>
      path === REPO_CONFIG_PATH && typeof version === 'object'
        ? { text, sizeBytes: new TextEncoder().encode(text).length, isBinary: false }
        : source.getFileContent(path, version, options),
  };
}
