import { heldReason } from '../budget/budget-reasons.js';
import type { CapPlan } from '../budget/plan-within-caps.js';
import { hasSpendCaps, roundUsd } from '../budget/spend-caps.js';
import { nonceFrom } from '../hostile/fence.js';
import type { PackedChunk, PackLimits } from '../plan/pack-chunks.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { ThoroughRun } from '../thorough/ask-samples.js';
import { CallSlots } from '../thorough/call-slots.js';
import type { ToolCallsByTier } from '../tools/read-file-tool.js';
import { type TriageOutcome, triageFiles } from '../triage/triage-files.js';
import type { Collected } from './collect.js';
import { planBudget } from './plan-budget.js';
import { type PlannedFiles, planFiles, TOKENS_APPROXIMATE } from './plan-files.js';
import { chunkWindow, packFiles } from './plan-packing.js';
import { type Ended, endedRun, type RunContext } from './run-context.js';
import { coverageSoFar } from './run-coverage.js';

/** The plan: which files go to a model, in which chunks and order, within which budget. */
export interface Planned extends Collected, PlannedFiles {
  /** One nonce per job, for every fence any model of this job reads (triage and review alike). */
  nonce: string;
  /** The pull request's title and description as prompts show them (redacted). */
  pullRequest: { title: string; description: string };
  capPlan: CapPlan;
  /** The chunks to review, in review order. */
  chunks: PackedChunk[];
  /** By file id: its chunks not yet reviewed; files absent have none. */
  chunksLeft: Map<number, number>;
  toolCallsByTier: ToolCallsByTier | undefined;
  /** Thorough mode for this run, absent when it applies to no chunk. */
  thoroughRun: ThoroughRun | undefined;
}

/**
 * Stage 3, plan (no review model call; triage only when it is mapped): the deterministic exclusions
 * and carry-forward, triage, packing into chunks, and the spend caps. A plan even the cheapest part
 * of which is over the hard cap ends the run `budgetHeld`.
 */
export async function plan(ctx: RunContext, run: Collected): Promise<Planned | Ended> {
  const { input } = ctx;
  const pass = await ctx.protocol.pass('plan', 'Plan the review');
  const defaultModel = await input.models.forPurpose('reviewDefault');
  const files = await planFiles(ctx, run, pass);
  const window = chunkWindow(ctx, run.pr, files.redactor, defaultModel);
  const nonce = nonceFrom(input.ids.randomHex(8));
  const triage = await triageShown(ctx, run, files, { nonce, limits: window.limits, pass });
  const packing = packFiles(files, triage !== undefined, window.limits);
  const budget = await planBudget(ctx, run, { files, packing, window, defaultModel }, pass);
  const planned: Planned = {
    ...run,
    ...files,
    nonce,
    pullRequest: window.pullRequest,
    ...budget,
    chunksLeft: chunksPerFile(budget.chunks, files),
    thoroughRun: thoroughRunOf(ctx, budget.capPlan, budget.chunks),
  };
  for (const entry of files.prepared.coverage.filter((c) => c.state === 'skipped')) {
    pass.event({
      kind: 'decision',
      name: 'file.skipped',
      eventCategory: 'planning',
      body: { path: entry.path, reason: entry.reason },
    });
  }
  pass.event({
    kind: 'decision',
    name: 'plan.ready',
    eventCategory: 'planning',
    body: planReady(ctx, planned, {
      reviewable: packing.reviewable.length,
      maxTokens: window.limits.maxTokens,
      triage,
    }),
  });
  if (files.prepared.injection.length > 0) {
    pass.event({
      kind: 'warning',
      name: 'injection.suspected',
      eventCategory: 'operational',
      body: { hits: files.prepared.injection },
    });
  }
  await pass.complete('succeeded');
  const { held } = budget.capPlan;
  if (!held) return planned;
  const coverage = coverageSoFar(planned, { budget: { ...ctx.caps, degraded: [], held } });
  const ended = endedRun(ctx, 'budgetHeld', heldReason(held, ctx.caps.hardUsd), run.pr, coverage);
  return { ended: { ...ended, revision: run.revision, threads: run.threads, ledger: run.publications } };
}

/**
 * Triage (optional): only files a model will be shown — a file none of whose hunks fits the
 * window is not — and only when `reviewTriage` is mapped; otherwise nothing is called.
 */
function triageShown(
  ctx: RunContext,
  run: Collected,
  files: PlannedFiles,
  { nonce, limits, pass }: { nonce: string; limits: PackLimits; pass: ProtocolPass },
): Promise<TriageOutcome | undefined> {
  const { prepared } = files;
  return triageFiles({
    files: prepared.planned.filter((p) => p.hunks.some((h) => p.headerTokens + h.tokens <= limits.maxTokens)),
    changedPaths: run.files.map((f) => f.path),
    injectionPaths: new Set(prepared.injection.map((hit) => hit.where)),
    models: ctx.input.models,
    ledger: ctx.ledger,
    protocol: ctx.protocol,
    plan: pass,
    clock: ctx.input.clock,
    signal: ctx.signal,
    nonce,
    concurrency: ctx.settings.maxConcurrentModelCalls,
    maxOutputTokens: ctx.settings.outputReserveTokens,
    hardUsd: ctx.caps.hardUsd,
  });
}

/** Thorough mode (asked for by the repository, kept by the ladder) applies to high-tier chunks. */
function thoroughRunOf(ctx: RunContext, capPlan: CapPlan, chunks: readonly PackedChunk[]): ThoroughRun | undefined {
  if (!capPlan.thorough || !chunks.some((c) => c.tier === 'high')) return undefined;
  return { ...ctx.thorough, seed: ctx.input.jobId, slots: new CallSlots(ctx.settings.maxConcurrentModelCalls) };
}

/**
 * How many chunks each file is in. A file in none is done already: its diff is let go (memory stays
 * bounded on huge pull requests) and the progress says so.
 */
function chunksPerFile(chunks: readonly PackedChunk[], files: PlannedFiles): Map<number, number> {
  const chunksLeft = new Map<number, number>();
  for (const chunk of chunks)
    for (const part of chunk.parts) chunksLeft.set(part.fileId, (chunksLeft.get(part.fileId) ?? 0) + 1);
  for (const file of files.prepared.planned) {
    if (!chunksLeft.has(file.id)) {
      file.diff = undefined;
      files.progress.settled();
    }
  }
  files.progress.report();
  return chunksLeft;
}

/** The `plan.ready` event's body: what the plan decided, in numbers. */
function planReady(
  ctx: RunContext,
  planned: Planned,
  { reviewable, maxTokens, triage }: { reviewable: number; maxTokens: number; triage: TriageOutcome | undefined },
) {
  const { caps } = ctx;
  const { capPlan, thoroughRun: thorough } = planned;
  return {
    files: planned.files.length,
    toReview: reviewable,
    chunks: planned.chunks.length,
    maxChunkTokens: maxTokens,
    estimate: capPlan.estimate,
    tokensApproximate: TOKENS_APPROXIMATE,
    deterministicFindings: planned.prepared.deterministic.length,
    thoroughChunks: capPlan.thorough ? planned.chunks.filter((c) => c.tier === 'high').length : 0,
    ...(thorough
      ? {
          thorough: {
            samples: thorough.samples,
            minAgreement: thorough.minAgreement,
            temperature: thorough.temperature,
          },
        }
      : {}),
    ...(triage ? { triage: { ...triage, spentUsd: roundUsd(ctx.ledger.costUsd()) } } : {}),
    ...(hasSpendCaps(caps) ? { spendCaps: caps, ...(capPlan.overHardCap ? { order: 'riskiestFirst' } : {}) } : {}),
  };
}
