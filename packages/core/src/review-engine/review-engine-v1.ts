import type { AiModelV1, AiPurpose, ModelPrices, ReasoningEffort } from '../ai-model/index.js';
import type { Clock, EventBus, Ids } from '../kernel/index.js';
import type { CommittableSuggestionSyntax, PullRequestRef, ScmProviderV1, ScmUser } from '../scm-provider/index.js';
import type { ReviewMemory } from './memory/review-memory.js';
import type { JobUsage, ModelCallUsage } from './protocol/job-usage.js';
import type { ProtocolWriter } from './protocol/protocol-writer.js';

/** The model serving one purpose for a job, with what the engine needs to budget and price it. */
export interface ReviewModel {
  /** The purpose asked for, and the one that supplied the model (a fallback to `reviewDefault`). */
  purpose: AiPurpose;
  resolvedPurpose: AiPurpose;
  connectionId: string;
  /** The logical model the purpose was mapped to, when it was (for the usage ledger). */
  logicalModel?: string | null | undefined;
  model: AiModelV1;
  supportsStructuredOutput: boolean;
  supportsToolUse: boolean;
  /** The context window, for chunk budgets; `null` when the configuration does not say. */
  maxContextTokens: number | null;
  prices: ModelPrices;
  reasoningEffort: ReasoningEffort;
}

/** Finds the model for a purpose; unmapped purposes fall back to `reviewDefault`, which must resolve. */
export interface ReviewModels {
  forPurpose(purpose: Exclude<AiPurpose, 'embeddingDefault'>): Promise<ReviewModel>;
  /**
   * The `embeddingDefault` model, for telling findings apart by meaning; `undefined` when the purpose
   * is not mapped (identity then compares identifiers and words only).
   */
  embeddings?(): Promise<ReviewModel | undefined>;
}

/** Where a knowledge answer comes from: a source's file lines at the commit it was indexed at. */
export interface KnowledgeCitation {
  sourceId: string;
  path: string;
  startLine: number;
  endLine: number;
  commit: string;
}
export interface KnowledgeSearchHit extends KnowledgeCitation {
  snippet: string;
  score: number;
  matchedBy: 'lexical' | 'semantic' | 'symbol';
}
export interface KnowledgeSymbolHit extends KnowledgeCitation {
  name: string;
  kind: string;
  container?: string | undefined;
  signature?: string | undefined;
  snippet: string;
}
/**
 * The job's code knowledge, already narrowed to its snapshotted scope (only `ready` sources the job
 * may see): the engine offers `search_knowledge` and `get_symbol` to tool-capable models when it is
 * given one, and nothing otherwise.
 */
export interface KnowledgeLookupV1 {
  search(query: string, options?: { limit?: number; signal?: AbortSignal }): Promise<KnowledgeSearchHit[]>;
  symbol(name: string, options?: { limit?: number; signal?: AbortSignal }): Promise<KnowledgeSymbolHit[]>;
  /**
   * This lookup with the pull request's change in front of it, when a source of the pull request's
   * repository indexes a mini-index of changes to its target branch: the change's files at the
   * head answer first (cited at the head commit), shadowing the branch's version of those paths,
   * and deleted files are hidden. Optional; absent (or answering itself), the engine uses this lookup.
   */
  withChange?(change: KnowledgeChangeV1): KnowledgeLookupV1;
}

/** The pull request's change as a knowledge lookup may index it on the side. */
export interface KnowledgeChangeV1 {
  targetBranch: string;
  headSha: string;
  /** Every changed file; `previousPath` for renames. */
  files: ReadonlyArray<{ path: string; previousPath?: string | undefined; deleted: boolean }>;
  /**
   * A changed file's text at the head through the review's own reads (one provider call per file
   * per job, whichever tool asks), redacted as the review shows it; `undefined` when it has none.
   */
  read(path: string, signal: AbortSignal): Promise<string | undefined>;
}

/** Where the job's pull request lives and who reviews it there. */
export interface ReviewScm {
  /** Connected with the stored connection's credentials, to the stored connection's host only. */
  provider: ScmProviderV1;
  pullRequest: PullRequestRef;
  /** The identity the connection posts as, when one was set on the connection. */
  reviewer: ScmUser | null;
  /** The provider's host, whose links posted comments may keep. */
  hostBaseUrl: string;
  /** The family's committable-suggestion syntax (its declared capability), when it has one. */
  suggestionSyntax?: CommittableSuggestionSyntax | undefined;
}

export interface ReviewContext {
  /** Aborted when the job is stopped, superseded, loses its lease, or the host shuts down. */
  signal: AbortSignal;
  /** The protocol of this attempt; every stage writes its passes and events here. */
  protocol: ProtocolWriter;
  /** Progress shown in the job status; saved with the next lease heartbeat. */
  reportProgress(progress: { filesTotal: number; filesDone: number }): void;
  /**
   * The job's pull request and the provider connected to it, resolved on first use (a job whose
   * connection is missing fails with a message naming what to add).
   */
  scm(): Promise<ReviewScm>;
  models: ReviewModels;
  memory: ReviewMemory;
  clock: Clock;
  ids: Ids;
  /** For `finding.published`. */
  events: Pick<EventBus, 'emit'>;
  /** Why the pull request is blocked now, if it is (a block placed after the job was queued). */
  blockedReason(): Promise<string | undefined>;
  /**
   * Whether the engine's spend caps bind this job: the `budgeting` capability was available when
   * it started. Without it (Community) reviews run uncapped, as the edition table says.
   */
  spendCapsApply: boolean;
  /**
   * The client's budget headroom for this job (US$), when spend caps apply: the run is capped by
   * the tighter of it and the installation's caps.
   */
  budgetCaps?: { softUsd?: number | undefined; hardUsd?: number | undefined } | undefined;
  /** The job's knowledge scope; absent (scope `none`, or nothing ready) offers no knowledge tools. */
  knowledge?: KnowledgeLookupV1 | undefined;
  /** The client's budget as several hosts share it, when one of its hard caps is shared by other reviews. */
  sharedSpend?: SharedSpendV1 | undefined;
  /**
   * Hears each model call as it returns (the calls `ReviewOutcome.usage` lists at the end), so a
   * review that throws is still accounted for what it spent.
   */
  onModelCall?: ((call: ModelCallUsage) => void) | undefined;
}

/**
 * A hard cap several reviews draw on at once (a client's monthly or pull-request cap, with reviews
 * running on several hosts). Before a chunk's calls the engine claims their estimated cost; a refused
 * claim keeps the chunk from starting, as the run's own hard cap does. Each finished call's real cost
 * is reported as it comes back, and the claim is released when the chunk ends. So the cap is passed
 * by at most what the chunks in flight spend beyond their estimates.
 */
export interface SharedSpendV1 {
  /** Whether `usd` more fits under the shared caps, claimed if so. */
  claim(usd: number): Promise<boolean>;
  /** Gives a claim back once its calls have ended (their cost came in through `spent`). */
  release(usd: number): Promise<void>;
  /** One finished call's cost; shared with the next claim or release. */
  spent(usd: number): void;
}

export interface ReviewOutcome {
  /**
   * `cancelled`: the pull request was closed, merged or blocked, so nothing was reviewed;
   * `superseded`: the pull request moved on past the job's revision, which its own job reviews;
   * `failed`: the review ran but produced nothing it can stand behind (every chunk failed) — the
   * result's coverage and the usage still say what was tried and what it cost;
   * `budgetHeld`: even the cheapest plan was estimated over the hard spend cap, so no model was
   * called; `budgetExceeded`: the spend reached the hard cap and the review stopped short, its
   * findings so far published. Both are restartable, like `failed`.
   */
  status: 'completed' | 'cancelled' | 'superseded' | 'failed' | 'budgetHeld' | 'budgetExceeded';
  result: { summary: string | null; findings: unknown[]; coverage: unknown; [extra: string]: unknown };
  usage: JobUsage | null;
  /** Why a job was cancelled, superseded, failed or stopped by its budget, shown as the job's error text. */
  reason?: string | undefined;
}

/**
 * The job as an engine reads it: the service hands over its whole job record (`ReviewJobRecord`),
 * of which the engine needs these.
 */
export interface ReviewJob {
  id: string;
  /** The revision the job names; `null` reviews the pull request's newest. */
  reviewRevision: { headSha: string; baseSha: string } | null;
  options: { reviewTemperature?: number | undefined };
}

/**
 * The seam between the job queue and the review pipeline: the worker hands each claimed job to the
 * engine and records what comes back. A thrown error fails the job with the error's message.
 */
export interface ReviewEngineV1 {
  readonly specificationVersion: 'v1';
  review(job: ReviewJob, context: ReviewContext): Promise<ReviewOutcome>;
}
