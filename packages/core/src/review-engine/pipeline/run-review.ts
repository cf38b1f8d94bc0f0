import { MarginError } from '../../errors.js';
import type { Clock, Ids } from '../../platform/index.js';
import type { ChangedFile, ListingTruncation, PullRequestSnapshot, ReviewThread, Revision } from '../../scm/index.js';
import { PathResolver } from '../anchor/anchor.js';
import { heldReason } from '../budget/budget-reasons.js';
import { planWithinCaps } from '../budget/plan-within-caps.js';
import { mappedTriagePrices, tierModelsOf } from '../budget/purpose-prices.js';
import { checkSpendCaps, hasSpendCaps, isPriced, roundUsd, type SpendCaps } from '../budget/spend-caps.js';
import { parseRepoConfig, REPO_CONFIG_PATH, type RepoConfig } from '../config/repo-config.js';
import { type CoverageBudget, type CoverageManifest, countCoverage } from '../coverage.js';
import { dedupeFindings, type KnownMatch } from '../dedupe/dedupe.js';
import { demote, type EngineFinding } from '../engine-finding.js';
import { DEFAULT_GATE_POLICY, type GatePolicy, gateFindings } from '../gate/gate.js';
import { nonceFrom } from '../hostile/fence.js';
import { SecretRedactor } from '../hostile/redact-secrets.js';
import { findingKeys } from '../identity/finding-keys.js';
import type { DismissedFinding, KnownFinding, PublicationEntry, ReviewMemory } from '../memory/review-memory.js';
import { excludeMatcher } from '../plan/classify-file.js';
import { estimateTokens, type PackedChunk, type PackLimits, packChunks } from '../plan/pack-chunks.js';
import { lowestRiskFirst, TIER_RANK, type Tier } from '../plan/tiers.js';
import { REVIEW_SYSTEM_PROMPT } from '../prompt/review-prompt.js';
import type { JobUsage } from '../protocol/job-usage.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';
import { RESOLVED_HEAD_EVENT } from '../protocol/vocabulary.js';
import type { ReviewModel, ReviewModels } from '../review-engine-v1.js';
import { renderSummary } from '../summary/summary.js';
import { CallSlots } from '../thorough/call-slots.js';
import {
  checkThoroughSettings,
  DEFAULT_THOROUGH_SETTINGS,
  type ThoroughSettings,
} from '../thorough/thorough-settings.js';
import { HeadFiles } from '../tools/head-files.js';
import { DEFAULT_TOOL_CALLS_BY_TIER, type ToolCallsByTier } from '../tools/read-file-tool.js';
import { triageFiles } from '../triage/triage-files.js';
import { embedForIdentity } from './embed-findings.js';
import { anchorsGone, applyThreadClosures, type Settled, settleKnown } from './finding-lifecycle.js';
import { type Focus, focusSince, nearFocus } from './focus-ranges.js';
import { forEachPooled } from './pool.js';
import { type PlannedFile, prepareFiles } from './prepare-files.js';
import { type ChunkResult, reviewChunk, type ThoroughRun } from './review-chunk.js';
import type { ReviewSource } from './review-source.js';
import { UsageLedger } from './usage-ledger.js';

export interface ReviewSettings {
  /** Model conversations in flight at once, per job. */
  maxConcurrentModelCalls: number;
  /** Provider calls for diffs in flight at once, per job. */
  diffFetchConcurrency: number;
  /** Diff tokens a chunk aims at. */
  targetChunkTokens: number;
  /** The context window assumed when the configured model does not name one. */
  defaultContextTokens: number;
  /** Tokens kept free for the answer. */
  outputReserveTokens: number;
  /** A second, refuting pass over every chunk's findings. */
  verify: boolean;
  /** Used when the job's configuration names none. */
  temperature: number;
  gate: GatePolicy;
  /** What one review run may spend; absent caps mean none (the service applies them only with `budgeting`). */
  spendCaps: SpendCaps;
  /**
   * Read-only file reads a reviewing model with `supportsToolUse` may make per chunk, by tier
   * (reference §6.5: 0, 3, 8); 0 everywhere turns tools off.
   */
  toolCallsByTier: ToolCallsByTier;
  /**
   * Thorough mode's samples, temperature and agreement (reference §6.5); it runs only for
   * repositories whose `.margin/config.yml` says `thorough: true`, on high-tier chunks.
   */
  thorough: ThoroughSettings;
}

export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  maxConcurrentModelCalls: 4,
  diffFetchConcurrency: 8,
  targetChunkTokens: 6000,
  defaultContextTokens: 32_000,
  outputReserveTokens: 2000,
  verify: true,
  temperature: 0.1,
  gate: DEFAULT_GATE_POLICY,
  spendCaps: {},
  toolCallsByTier: DEFAULT_TOOL_CALLS_BY_TIER,
  thorough: DEFAULT_THOROUGH_SETTINGS,
};

export interface RunReviewInput {
  jobId: string;
  source: ReviewSource;
  models: ReviewModels;
  memory: ReviewMemory;
  protocol: ProtocolWriter;
  clock: Clock;
  ids: Ids;
  signal: AbortSignal;
  reportProgress(progress: { filesTotal: number; filesDone: number }): void;
  /** The revision the job names; `null` reviews the pull request's newest. */
  revision: { headSha: string; baseSha: string } | null;
  temperature?: number | undefined;
  blockedReason?: (() => Promise<string | undefined>) | undefined;
  settings?: Partial<ReviewSettings> | undefined;
}

export interface ReviewRun {
  /**
   * `budgetHeld`: even the cheapest plan was estimated over the hard spend cap, so no model was
   * called (the reason says the estimate and the cap). A run the hard cap stopped is `reviewed`,
   * with `coverage.budget.stopped` set.
   */
  status: 'reviewed' | 'cancelled' | 'superseded' | 'budgetHeld';
  reason?: string | undefined;
  pullRequest?: PullRequestSnapshot | undefined;
  revision?: Revision | undefined;
  findings: EngineFinding[];
  coverage: CoverageManifest;
  summary: string | null;
  usage: JobUsage;
  /** What the provider showed before this run posted anything. */
  threads: ReviewThread[];
  ledger: PublicationEntry[];
  /** Every chunk failed: the review produced nothing it can stand behind. */
  allFailed: boolean;
  /** How this run's findings relate to those earlier reviews posted, and what became of those. */
  identity: ReviewIdentity;
}

export interface ReviewIdentity {
  /** As loaded, with people's closures applied. */
  known: KnownFinding[];
  /** Findings people closed as won't-fix or by design since the last review. */
  dismissedByPeople: KnownFinding[];
  matches: Map<EngineFinding, KnownMatch>;
  settled: Settled;
}

/**
 * Stages resolve → collect → plan → review (with verify and anchoring per chunk) → dedupe and gate
 * → summarize, each writing protocol passes. Nothing is posted here; `publishReview` does that.
 */
export async function runReview(input: RunReviewInput): Promise<ReviewRun> {
  const settings: ReviewSettings = { ...DEFAULT_REVIEW_SETTINGS, ...input.settings };
  const caps = checkSpendCaps(settings.spendCaps);
  const thoroughSettings = checkThoroughSettings(settings.thorough);
  const { protocol, signal, source } = input;
  const ledger = new UsageLedger();
  const emptyCoverage = (): CoverageManifest => ({
    files: [],
    counts: countCoverage([]),
    complete: false,
    injectionSuspected: false,
    tokensApproximate: true,
  });
  const ended = (
    status: Exclude<ReviewRun['status'], 'reviewed'>,
    reason: string,
    pullRequest?: PullRequestSnapshot,
    coverage = emptyCoverage(),
  ): ReviewRun => ({
    status,
    reason,
    pullRequest,
    findings: [],
    coverage,
    summary: null,
    usage: ledger.toJobUsage(),
    threads: [],
    ledger: [],
    allFailed: false,
    identity: {
      known: [],
      dismissedByPeople: [],
      matches: new Map(),
      settled: { resolved: [], superseded: [], stillOpen: [] },
    },
  });

  // resolve
  // Submissions read the head a running review recorded here (RESOLVED_HEAD_EVENT).
  const resolve = await protocol.pass(RESOLVED_HEAD_EVENT.stage, 'Read the pull request');
  const pr = await source.getPullRequest({ signal });
  resolve.event({
    kind: 'call',
    name: RESOLVED_HEAD_EVENT.name,
    eventCategory: RESOLVED_HEAD_EVENT.eventCategory,
    body: {
      status: pr.status,
      isDraft: pr.isDraft,
      headSha: pr.revision.headSha,
      baseSha: pr.revision.baseSha,
      targetBranch: pr.targetBranch,
    },
  });
  const blocked = await input.blockedReason?.();
  const stop =
    pr.status !== 'open'
      ? ended('cancelled', `The pull request is ${pr.status}.`, pr)
      : blocked
        ? ended('cancelled', `The pull request is blocked: ${blocked}`, pr)
        : input.revision && input.revision.headSha.toLowerCase() !== pr.revision.headSha.toLowerCase()
          ? ended(
              'superseded',
              `The pull request moved on to ${pr.revision.headSha.slice(0, 12)} after this job was queued for ${input.revision.headSha.slice(0, 12)}; the newer revision is reviewed by its own job.`,
              pr,
            )
          : undefined;
  if (stop) {
    resolve.event({
      kind: 'decision',
      name: `job.${stop.status}`,
      eventCategory: 'operational',
      body: { reason: stop.reason },
    });
    await resolve.complete('succeeded');
    return stop;
  }
  const revision = pr.revision;
  await resolve.complete('succeeded');

  // collect
  const collect = await protocol.pass('collect', 'Collect changed files, threads and settings');
  let truncation: ListingTruncation | undefined;
  const files: ChangedFile[] = [];
  const onTruncated = (t: ListingTruncation) => {
    truncation = t;
  };
  for await (const file of source.listChangedFiles(revision, { signal, onTruncated })) files.push(file);
  const threads: ReviewThread[] = [];
  for await (const thread of source.listThreads({ signal })) threads.push(thread);
  const [dismissals, publications, config, loadedKnown, baseline] = await Promise.all([
    input.memory.dismissals(),
    input.memory.publications.list(),
    readRepoConfig(source, pr.targetBranch, signal, collect),
    input.memory.findings?.list() ?? Promise.resolve([]),
    input.memory.lastReview?.() ?? Promise.resolve(undefined),
  ]);
  const closures = applyThreadClosures(loadedKnown, threads);
  const known = closures.known;
  collect.event({
    kind: 'decision',
    name: 'memory.read',
    eventCategory: 'memory',
    body: {
      knownFindings: countStates(known),
      dismissedByPeople: closures.dismissed.map((k) => k.id),
      lastReview: baseline ? { headSha: baseline.headSha, files: baseline.files.size } : null,
    },
  });
  collect.event({
    kind: 'call',
    name: 'changes.listed',
    eventCategory: 'scm-call',
    body: {
      files: files.length,
      truncated: truncation ?? null,
      threads: threads.length,
      ourThreads: threads.filter((t) => t.marker).length,
    },
  });
  if (truncation) {
    collect.event({ kind: 'warning', name: 'changes.truncated', eventCategory: 'operational', body: truncation });
  }
  await collect.complete('succeeded');

  // plan
  const plan = await protocol.pass('plan', 'Plan the review');
  const defaultModel = await input.models.forPurpose('reviewDefault');
  // Planning weighs every file, so it uses the character estimate (about 12% high for code, which
  // errs on the safe side): exact tokenizers cost 0.3–0.5 ms per KB, over the per-file budget on
  // large pull requests. What each call really used comes back in the provider's usage figures.
  const countTokens = estimateTokens;
  const approximate = true;
  let filesDone = 0;
  const progress = () => input.reportProgress({ filesTotal: files.length, filesDone });
  const redactor = new SecretRedactor();
  const prepared = await prepareFiles({
    files: files.sort((a, b) => a.path.localeCompare(b.path)),
    revision,
    source,
    excluded: excludeMatcher(config.exclude),
    redactor,
    countTokens,
    signal,
    newId: () => input.ids.uuid(),
    concurrency: settings.diffFetchConcurrency,
    onSettled: (n) => {
      filesDone += n;
      progress();
    },
    unchangedSinceLastReview: baseline ? (path, key) => baseline.files.get(path) === key : undefined,
  });
  const focus: Focus =
    baseline && prepared.planned.length > 0
      ? await focusSince({
          baseline,
          revision,
          planned: prepared.planned,
          source,
          signal,
          concurrency: settings.diffFetchConcurrency,
        })
      : { relation: baseline ? 'identical' : 'none', lines: new Map() };
  if (baseline) {
    plan.event({
      kind: 'decision',
      name: 'incremental',
      eventCategory: 'planning',
      body: {
        sinceHeadSha: baseline.headSha,
        relation: focus.relation,
        carriedForward: prepared.coverage.filter((c) => c.state === 'carriedForward').length,
        focusedFiles: focus.lines.size,
        fullReview: focus.relation !== 'ahead' && focus.relation !== 'identical',
      },
    });
  }
  const pullRequestText = redactor.redactText(`${pr.title}\n${pr.description}`).text;
  const [title = '', ...descriptionLines] = pullRequestText.split('\n');

  const prefixTokens = countTokens(REVIEW_SYSTEM_PROMPT) + countTokens(pullRequestText) + 300;
  const window = defaultModel.maxContextTokens ?? settings.defaultContextTokens;
  const maxTokens = Math.max(500, window - prefixTokens - settings.outputReserveTokens - Math.ceil(window * 0.1));
  const limits: PackLimits = { targetTokens: settings.targetChunkTokens, maxTokens };
  // One nonce per job, for every fence any model of this job reads (triage and review alike).
  const nonce = nonceFrom(input.ids.randomHex(8));
  // Triage (optional): only files a model will be shown — a file none of whose hunks fits the
  // window is not — and only when `reviewTriage` is mapped; otherwise nothing is called.
  const triage = await triageFiles({
    files: prepared.planned.filter((p) => p.hunks.some((h) => p.headerTokens + h.tokens <= maxTokens)),
    changedPaths: files.map((f) => f.path),
    injectionPaths: new Set(prepared.injection.map((hit) => hit.where)),
    models: input.models,
    ledger,
    protocol,
    plan,
    clock: input.clock,
    signal,
    nonce,
    concurrency: settings.maxConcurrentModelCalls,
    maxOutputTokens: settings.outputReserveTokens,
    hardUsd: caps.hardUsd,
  });
  // What triage approved skipping is not packed; every later step sees it as skipped.
  const reviewable = triage ? prepared.planned.filter((p) => p.coverage.state !== 'skipped') : prepared.planned;
  const packable = reviewable.map((p) => ({
    id: p.id,
    path: p.file.path,
    headerTokens: p.headerTokens,
    hunks: p.hunks,
    tier: p.tier,
  }));
  const firstPacking = packChunks(packable, limits);
  const byId = new Map(prepared.planned.map((p) => [p.id, p]));
  for (const [fileId, hunks] of firstPacking.oversized) {
    const file = byId.get(fileId) as PlannedFile;
    file.coverage.state = hunks.length === file.hunks.length ? 'skipped' : 'partial';
    file.coverage.reason = 'hunkTooLarge';
  }
  for (const file of reviewable) {
    file.coverage.tokens = file.headerTokens + file.hunks.reduce((n, h) => n + h.tokens, 0);
  }
  // Each purpose the plan may use, resolved once: the estimate prices every tier at its own model.
  const tierModels = await tierModelsOf(input.models);
  const verifyModel = settings.verify ? await input.models.forPurpose('reviewVerification') : defaultModel;
  const toolCallsByTier = toolBudgets(settings.toolCallsByTier, source, tierModels);
  const capPlan = planWithinCaps({
    caps,
    files: packable,
    packed: firstPacking,
    pack: (some) => packChunks(some, limits),
    basis: {
      prefixTokens,
      tierPrices: { low: tierModels.low.prices, medium: tierModels.medium.prices, high: tierModels.high.prices },
      verifyPrices: verifyModel.prices,
      toolCallsByTier,
      thoroughSamples: config.thorough ? thoroughSettings.samples : undefined,
    },
    // Only the ladder's triageForLow asks for it, and only a soft cap runs the ladder.
    triagePrices: caps.softUsd === undefined ? undefined : await mappedTriagePrices(input.models, signal),
    verify: settings.verify,
    skipOrder: () => lowestRiskFirst(reviewable.map((p) => ({ ...p, path: p.file.path }))),
    spentUsd: ledger.costUsd(),
  });
  const { estimate } = capPlan;
  /** The coverage manifest as it stands: `complete` is decided where the run ends. */
  const coverageWith = (extra: Pick<CoverageManifest, 'parsing' | 'budget'>): CoverageManifest => ({
    files: prepared.coverage,
    counts: countCoverage(prepared.coverage),
    complete: false,
    listingTruncated: truncation,
    injectionSuspected: prepared.injection.length > 0,
    tokensApproximate: approximate,
    estimate,
    ...extra,
  });
  const priced = [defaultModel, verifyModel, tierModels.low, tierModels.medium, tierModels.high].some((m) =>
    isPriced(m.prices),
  );
  if (hasSpendCaps(caps) && !priced) {
    // Nothing priced costs US$0, so no cap can bind: say so rather than look capped.
    plan.event({
      kind: 'decision',
      name: 'budget.unpriced',
      eventCategory: 'operational',
      body: { caps, purpose: 'reviewDefault', remoteModelId: defaultModel.model.remoteModelId },
    });
  }
  for (const step of capPlan.steps) {
    plan.event({ kind: 'decision', name: 'budget.degraded', eventCategory: 'planning', body: { ...step, caps } });
  }
  for (const fileId of capPlan.skipped) budgetCut(byId.get(fileId) as PlannedFile, 'skipped');
  if (capPlan.held) {
    for (const chunk of firstPacking.chunks)
      for (const part of chunk.parts) budgetCut(byId.get(part.fileId) as PlannedFile, 'skipped');
    plan.event({
      kind: 'decision',
      name: 'budget.held',
      eventCategory: 'planning',
      body: { ...capPlan.held, hardUsd: caps.hardUsd },
    });
  }
  // When the estimate says the hard cap will stop the run, the riskiest chunks go first, so the
  // stop cuts the least valuable review (the order stays deterministic).
  const chunks: PackedChunk[] = capPlan.held
    ? []
    : capPlan.overHardCap
      ? [...capPlan.packed.chunks].sort((a, b) => TIER_RANK[b.tier] - TIER_RANK[a.tier])
      : capPlan.packed.chunks;
  // Thorough mode (asked for by the repository, kept by the ladder) applies to high-tier chunks.
  const thoroughChunks = capPlan.thorough ? chunks.filter((c) => c.tier === 'high').length : 0;
  const thorough: ThoroughRun | undefined =
    thoroughChunks > 0
      ? { ...thoroughSettings, seed: input.jobId, slots: new CallSlots(settings.maxConcurrentModelCalls) }
      : undefined;
  const chunksLeft = new Map<number, number>();
  for (const chunk of chunks)
    for (const part of chunk.parts) chunksLeft.set(part.fileId, (chunksLeft.get(part.fileId) ?? 0) + 1);
  for (const file of prepared.planned) {
    if (!chunksLeft.has(file.id)) {
      file.diff = undefined;
      filesDone++;
    }
  }
  progress();
  for (const entry of prepared.coverage.filter((c) => c.state === 'skipped')) {
    plan.event({
      kind: 'decision',
      name: 'file.skipped',
      eventCategory: 'planning',
      body: { path: entry.path, reason: entry.reason },
    });
  }
  plan.event({
    kind: 'decision',
    name: 'plan.ready',
    eventCategory: 'planning',
    body: {
      files: files.length,
      toReview: reviewable.length,
      chunks: chunks.length,
      maxChunkTokens: maxTokens,
      estimate,
      tokensApproximate: approximate,
      deterministicFindings: prepared.deterministic.length,
      thoroughChunks,
      ...(thorough
        ? {
            thorough: {
              samples: thorough.samples,
              minAgreement: thorough.minAgreement,
              temperature: thorough.temperature,
            },
          }
        : {}),
      ...(triage ? { triage: { ...triage, spentUsd: roundUsd(ledger.costUsd()) } } : {}),
      ...(hasSpendCaps(caps) ? { spendCaps: caps, ...(capPlan.overHardCap ? { order: 'riskiestFirst' } : {}) } : {}),
    },
  });
  if (prepared.injection.length > 0) {
    plan.event({
      kind: 'warning',
      name: 'injection.suspected',
      eventCategory: 'operational',
      body: { hits: prepared.injection },
    });
  }
  await plan.complete('succeeded');
  if (capPlan.held) {
    const coverage = coverageWith({ budget: { ...caps, degraded: [], held: capPlan.held } });
    return {
      ...ended('budgetHeld', heldReason(capPlan.held, caps.hardUsd), pr, coverage),
      revision,
      threads,
      ledger: publications,
    };
  }

  // review
  const parsing: NonNullable<CoverageManifest['parsing']> = {};
  const findings: EngineFinding[] = [...prepared.deterministic];
  const failedChunks: ChunkResult['failures'] = [];
  const temperature = input.temperature ?? settings.temperature;
  const changedPaths = files.map((f) => ({
    path: f.path,
    previousPath: f.previousPath,
    deleted: f.changeType === 'deleted',
  }));
  const changedFiles = new PathResolver(changedPaths);
  const dismissed = dismissals.map((d) => d.findingMessage);
  const openKnown = new Map<string, KnownFinding[]>();
  for (const k of known) {
    if (k.state !== 'open' && k.state !== 'reopened') continue;
    const list = openKnown.get(k.path.toLowerCase()) ?? [];
    list.push(k);
    openKnown.set(k.path.toLowerCase(), list);
  }
  const alreadyReported = new Map([...openKnown].map(([path, list]) => [path, list.map((k) => k.title)]));
  const knownOf = (file: PlannedFile) => [
    ...(openKnown.get(file.file.path.toLowerCase()) ?? []),
    ...(file.file.previousPath ? (openKnown.get(file.file.previousPath.toLowerCase()) ?? []) : []),
  ];
  const gone = new Set<string>();
  // One cache of head files per job: chunks reading the same definition cost one provider call.
  const tools = toolCallsByTier
    ? { files: new HeadFiles(source, revision.headSha, redactor), callsByTier: toolCallsByTier }
    : undefined;
  // The hard cap is checked before each chunk against what the calls so far cost (the ledger is
  // updated as each call's usage comes back); chunks already in flight finish.
  const hardUsd = caps.hardUsd;
  const notStarted: PackedChunk[] = [];
  const started = new Set<number>();
  await forEachPooled(chunks, settings.maxConcurrentModelCalls, async (chunk, index) => {
    // With thorough samples in flight the job's call slots bound the chunks too (one each).
    if (thorough) await thorough.slots.acquire();
    try {
      await reviewOne(chunk, index);
    } finally {
      thorough?.slots.release();
    }
  });
  async function reviewOne(chunk: PackedChunk, index: number): Promise<void> {
    if (hardUsd !== undefined && ledger.costUsd() >= hardUsd) {
      notStarted.push(chunk);
      return;
    }
    for (const part of chunk.parts) started.add(part.fileId);
    const result = await reviewChunk(chunk, `Review chunk ${index + 1} of ${chunks.length}`, {
      files: byId,
      changedFiles,
      changedPaths,
      models: input.models,
      ledger,
      protocol,
      clock: input.clock,
      signal,
      newId: () => input.ids.uuid(),
      nonce,
      pullRequest: { title, description: descriptionLines.join('\n').trim() },
      config,
      dismissed,
      temperature,
      verify: settings.verify,
      verifySevereOnly: capPlan.verifySevereOnly,
      purposeByTier: capPlan.purposeByTier,
      maxOutputTokens: settings.outputReserveTokens,
      focus: focus.lines,
      alreadyReported,
      tools,
      hardUsd,
      thorough,
    });
    for (const f of result.findings) f.chunk = index;
    findings.push(...result.findings);
    failedChunks.push(...result.failures);
    for (const p of result.parsing) {
      const stats = parsing[p.rung] ?? { ok: 0, repaired: 0, failed: 0 };
      parsing[p.rung] = stats;
      if (!p.ok) stats.failed++;
      else if (p.repaired) stats.repaired++;
      else stats.ok++;
    }
    for (const part of chunk.parts) {
      const file = byId.get(part.fileId) as PlannedFile;
      if (!part.whole && file.coverage.state === 'reviewed' && !file.coverage.reason)
        file.coverage.reason = 'splitAtHunks';
      const left = (chunksLeft.get(part.fileId) ?? 1) - 1;
      chunksLeft.set(part.fileId, left);
      if (left === 0) {
        // Before the diff goes: which open findings of this file point at lines it no longer shows.
        const mine = knownOf(file);
        if (mine.length > 0 && file.diff) for (const id of anchorsGone(mine, file.diff)) gone.add(id);
        file.diff = undefined; // the review of this file is done: keep memory bounded on huge pull requests
        filesDone++;
      }
    }
    progress();
  }
  // What the hard cap kept from review: `skipped`, or `partial` when some of a file's chunks ran.
  const stopAtHardCap = async (): Promise<NonNullable<CoverageBudget['stopped']>> => {
    const cut = new Set<PlannedFile>();
    for (const chunk of notStarted) {
      for (const part of chunk.parts) {
        const file = byId.get(part.fileId) as PlannedFile;
        budgetCut(file, started.has(file.id) ? 'partial' : 'skipped');
        cut.add(file);
        const left = (chunksLeft.get(part.fileId) ?? 1) - 1;
        chunksLeft.set(part.fileId, left);
        if (left === 0) {
          file.diff = undefined;
          filesDone++;
        }
      }
    }
    progress();
    const stop = { spentUsd: roundUsd(ledger.costUsd()), chunksNotStarted: notStarted.length, files: cut.size };
    const pass = await protocol.pass('review', 'Stop at the hard spend cap');
    pass.event({
      kind: 'decision',
      name: 'budget.exceeded',
      eventCategory: 'operational',
      body: { ...stop, hardUsd, paths: [...cut].map((f) => f.file.path) },
    });
    await pass.complete('skipped');
    return stop;
  };
  const stopped = notStarted.length > 0 ? await stopAtHardCap() : undefined;
  for (const failure of failedChunks) {
    for (const fileId of failure.fileIds) {
      const file = byId.get(fileId) as PlannedFile;
      file.coverage.state = 'reviewFailed';
      file.coverage.reason = failure.reason;
    }
  }
  for (const file of prepared.planned) if (file.coverage.reason === 'splitAtHunks') file.coverage.reason = undefined;
  for (const f of prepared.deterministic) {
    f.keys = findingKeys({
      path: f.path ?? '',
      anchorText: f.anchor?.anchorText ?? '',
      enclosingSymbol: f.enclosingSymbol,
      category: f.category,
      ruleId: f.proposed.ruleId,
      title: f.title,
      message: f.message,
    });
  }

  // dedupe and gate
  const filter = await protocol.pass('filter', 'Deduplicate and gate findings');
  const focusByPath = new Map([...focus.lines].map(([id, lines]) => [(byId.get(id) as PlannedFile).file.path, lines]));
  for (const f of findings) {
    const lines = f.anchor ? focusByPath.get(f.anchor.path) : undefined;
    if (!f.anchor || !lines || f.source !== 'model' || f.severity === 'error') continue;
    if (!nearFocus(lines, f.anchor.startLine, f.anchor.endLine) && demote(f, 'summaryOnly', 'outsideFocus')) {
      filter.event({
        kind: 'decision',
        name: 'finding.gated',
        eventCategory: 'filtering',
        body: { findingId: f.id, step: 'outsideFocus' },
      });
    }
  }
  const vectors = await embedForIdentity({
    models: input.models,
    findings,
    known,
    dismissals,
    threads,
    ledger,
    pass: filter,
    clock: input.clock,
    signal,
  });
  const { created, matches } = dedupeFindings(
    findings,
    { jobId: input.jobId, threads, ledger: publications, dismissals, known, vectors },
    () => input.ids.uuid(),
    (f, detail) =>
      filter.event({
        kind: 'decision',
        name: 'finding.suppressed',
        eventCategory: 'duplicate-suppression',
        body: { findingId: f.id, reason: f.reason, ...detail },
      }),
  );
  findings.push(...created);
  const policy: GatePolicy = {
    ...settings.gate,
    ...(config.minimumSeverity ? { minimumSeverity: config.minimumSeverity } : {}),
    ...(config.maxComments !== undefined ? { maxInlinePerPullRequest: config.maxComments } : {}),
  };
  gateFindings(findings, policy, (f, step) =>
    filter.event({
      kind: 'decision',
      name: 'finding.gated',
      eventCategory: 'filtering',
      body: { findingId: f.id, step, publication: f.publication, severity: f.severity },
    }),
  );
  await filter.complete('succeeded');

  const coverage = coverageWith({
    parsing,
    ...(hasSpendCaps(caps)
      ? {
          budget: {
            ...caps,
            degraded: capPlan.steps.map((step) =>
              step.step === 'skipFiles' ? { ...step, files: step.files.length } : step,
            ),
            ...(stopped ? { stopped } : {}),
          },
        }
      : {}),
  });
  coverage.complete =
    !truncation &&
    coverage.counts.partial === 0 &&
    coverage.counts.reviewFailed === 0 &&
    !(hasSpendCaps(caps) && prepared.coverage.some((c) => c.reason === 'budget'));
  const reviewed = chunks.length;
  const allFailed =
    reviewed > 0 && prepared.planned.every((p) => p.coverage.state === 'reviewFailed' || !chunksLeft.has(p.id));

  const stillChanged = new Set(
    files.flatMap((f) => [f.path.toLowerCase(), ...(f.previousPath ? [f.previousPath.toLowerCase()] : [])]),
  );
  const reviewedPaths = new Set(
    prepared.coverage
      .filter((c) => c.state === 'reviewed')
      .flatMap((c) => [c.path.toLowerCase(), ...(c.previousPath ? [c.previousPath.toLowerCase()] : [])]),
  );
  const settled = settleKnown({
    known,
    matches,
    changedPaths: stillChanged,
    fullyReviewed: (path) => reviewedPaths.has(path),
    gone,
  });
  const identity: ReviewIdentity = { known, dismissedByPeople: closures.dismissed, matches, settled };
  if (known.length > 0) {
    const memoryPass = await protocol.pass('memory', 'Findings of earlier reviews');
    for (const [f, m] of matches) {
      memoryPass.event({
        kind: 'decision',
        name: `known.${m.outcome}`,
        eventCategory: 'memory',
        body: { findingId: f.id, knownFindingId: m.known.id },
      });
    }
    for (const [what, list] of Object.entries(settled)) {
      for (const k of list)
        memoryPass.event({
          kind: 'decision',
          name: `known.${what}`,
          eventCategory: 'memory',
          body: { knownFindingId: k.id, path: k.path },
        });
    }
    await memoryPass.complete('succeeded');
  }
  if (baseline)
    coverage.incremental = { sinceHeadSha: baseline.headSha, relation: focus.relation, focused: focus.lines.size > 0 };

  const summarize = await protocol.pass('summarize', 'Write the summary');
  const summary = renderSummary({ headSha: revision.headSha, findings, coverage, lifecycle: lifecycleOf(identity) });
  summarize.event({
    kind: 'decision',
    name: 'summary.written',
    eventCategory: 'publication',
    body: {
      published: findings.filter((f) => f.publication === 'published').length,
      summaryOnly: findings.filter((f) => f.publication === 'summaryOnly').length,
      coverage: coverage.counts,
    },
  });
  await summarize.complete('succeeded');

  return {
    status: 'reviewed',
    pullRequest: pr,
    revision,
    findings,
    coverage,
    summary,
    usage: ledger.toJobUsage(),
    threads,
    ledger: publications,
    allFailed: allFailed && failedChunks.length > 0,
    identity,
  };
}

/**
 * The file reads each tier's chunks may make: the setting where the tier's model supports tools,
 * 0 where it does not; `undefined` (tools off, nothing asked of the models) when every tier's
 * setting is 0 or the source cannot read files.
 */
function toolBudgets(
  setting: ToolCallsByTier,
  source: ReviewSource,
  models: Readonly<Record<Tier, ReviewModel>>,
): ToolCallsByTier | undefined {
  if (source.readsFiles === false) return undefined;
  const budgets: Record<Tier, number> = { low: 0, medium: 0, high: 0 };
  for (const tier of ['low', 'medium', 'high'] as const) {
    const calls = Math.max(0, Math.floor(setting[tier] ?? 0));
    if (calls > 0 && models[tier].supportsToolUse) budgets[tier] = calls;
  }
  return budgets.low + budgets.medium + budgets.high > 0 ? budgets : undefined;
}

/** A file the spend caps kept (wholly or in part) from review. */
function budgetCut(file: PlannedFile, state: 'skipped' | 'partial'): void {
  file.coverage.state = state;
  file.coverage.reason = 'budget';
}

/** Counts for the result and the summary: what became of earlier findings. */
export function lifecycleOf(identity: ReviewIdentity) {
  return {
    resolved: identity.settled.resolved.length,
    reopened: [...identity.matches.values()].filter((m) => m.outcome === 'reopen').length,
    stillOpen:
      identity.settled.stillOpen.length +
      [...identity.matches.values()].filter(
        (m) => m.outcome === 'seen' && (m.known.state === 'open' || m.known.state === 'reopened'),
      ).length,
    superseded: identity.settled.superseded.length,
    dismissedByPeople: identity.dismissedByPeople.length,
  };
}

export type Lifecycle = ReturnType<typeof lifecycleOf>;

function countStates(known: readonly KnownFinding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of known) counts[k.state] = (counts[k.state] ?? 0) + 1;
  return counts;
}

/** `.margin/config.yml` from the target branch: missing means defaults, invalid means warnings. */
async function readRepoConfig(
  source: ReviewSource,
  targetBranch: string,
  signal: AbortSignal,
  pass: { event(e: { kind: string; name: string; eventCategory: 'operational'; body: unknown }): void },
): Promise<RepoConfig> {
  let text: string | undefined;
  try {
    text = (await source.getFileContent(REPO_CONFIG_PATH, { branch: targetBranch }, { signal }))?.text;
  } catch (error) {
    if (signal.aborted) throw error;
    pass.event({
      kind: 'warning',
      name: 'config.unreadable',
      eventCategory: 'operational',
      body: {
        path: REPO_CONFIG_PATH,
        branch: targetBranch,
        message: MarginError.isInstance(error) ? error.message : 'read failed',
      },
    });
    return { exclude: [], instructions: [] };
  }
  if (text === undefined) return { exclude: [], instructions: [] };
  const { config, warnings } = parseRepoConfig(text);
  for (const warning of warnings) {
    pass.event({ kind: 'warning', name: 'config.invalid', eventCategory: 'operational', body: { message: warning } });
  }
  pass.event({
    kind: 'decision',
    name: 'config.read',
    eventCategory: 'operational',
    body: {
      branch: targetBranch,
      exclude: config.exclude.length,
      instructions: config.instructions.length,
      minimumSeverity: config.minimumSeverity ?? null,
      maxComments: config.maxComments ?? null,
      thorough: config.thorough ?? false,
    },
  });
  return config;
}

export type { DismissedFinding, ReviewMemory };
