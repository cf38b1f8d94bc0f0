import { PathResolver } from '../anchor/anchor.js';
import { roundUsd } from '../budget/spend-caps.js';
import type { CoverageBudget, CoverageManifest } from '../coverage.js';
import type { EngineFinding } from '../engine-finding.js';
import { keyFinding } from '../identity/key-finding.js';
import type { KnownFinding } from '../memory/review-memory.js';
import { anchorsGone } from '../pipeline/finding-lifecycle.js';
import { forEachPooled } from '../pipeline/pool.js';
import type { PlannedFile } from '../pipeline/prepare-files.js';
import { type ChunkEnv, type ChunkResult, reviewChunk } from '../pipeline/review-chunk.js';
import type { PackedChunk } from '../plan/pack-chunks.js';
import type { KnowledgeChangeV1, KnowledgeLookupV1 } from '../review-engine-v1.js';
import { HeadFiles } from '../tools/head-files.js';
import type { Planned } from './plan.js';
import { budgetCut } from './plan-budget.js';
import type { RunContext } from './run-context.js';

/** What review produced: every finding (the deterministic ones first), and what could not be reviewed. */
export interface Reviewed extends Planned {
  findings: EngineFinding[];
  /** Pieces that could not be reviewed; their files are `reviewFailed`. */
  failedChunks: ChunkResult['failures'];
  /** How answers were read, per structured-output rung. */
  parsing: NonNullable<CoverageManifest['parsing']>;
  /** Open findings of earlier reviews whose anchored lines their file's diff no longer shows. */
  gone: Set<string>;
  /** Where the hard spend cap stopped the run, if it did. */
  stopped: CoverageBudget['stopped'];
}

/** What the chunks add up to as they finish, in whatever order that is. */
interface Tally {
  findings: EngineFinding[];
  failedChunks: ChunkResult['failures'];
  parsing: NonNullable<CoverageManifest['parsing']>;
  gone: Set<string>;
  /** Chunks the hard cap kept from starting. */
  notStarted: PackedChunk[];
  /** Files at least one chunk of which started. */
  started: Set<number>;
}

/**
 * Stage 4, review: one conversation per chunk (with verification, anchoring and claim checks),
 * up to `maxConcurrentModelCalls` at once. The hard cap is checked before each chunk against what
 * the calls so far cost (the ledger is updated as each call's usage comes back); chunks already in
 * flight finish, the rest are recorded as kept back.
 */
export async function review(ctx: RunContext, run: Planned): Promise<Reviewed> {
  const shared = ctx.input.sharedSpend;
  const claimOf = chunkClaims(run);
  const openKnown = openKnownByPath(run.known);
  const env = chunkEnv(ctx, run, openKnown);
  const knownOf = (file: PlannedFile) => [
    ...(openKnown.get(file.file.path.toLowerCase()) ?? []),
    ...(file.file.previousPath ? (openKnown.get(file.file.previousPath.toLowerCase()) ?? []) : []),
  ];
  const tally: Tally = {
    findings: [...run.prepared.deterministic],
    failedChunks: [],
    parsing: {},
    gone: new Set(),
    notStarted: [],
    started: new Set(),
  };
  const thorough = run.thoroughRun;
  await forEachPooled(run.chunks, ctx.settings.maxConcurrentModelCalls, async (chunk, index) => {
    // With thorough samples in flight the job's call slots bound the chunks too (one each).
    if (thorough) await thorough.slots.acquire();
    try {
      await reviewOne(chunk, index);
    } finally {
      thorough?.slots.release();
    }
  });
  async function reviewOne(chunk: PackedChunk, index: number): Promise<void> {
    const claim = claimOf(chunk);
    const overOwnCap = env.hardUsd !== undefined && ctx.ledger.costUsd() >= env.hardUsd;
    if (overOwnCap || (shared && !(await shared.claim(claim)))) {
      tally.notStarted.push(chunk);
      return;
    }
    for (const part of chunk.parts) tally.started.add(part.fileId);
    const result = await reviewChunk(chunk, `Review chunk ${index + 1} of ${run.chunks.length}`, env).finally(() =>
      shared?.release(claim),
    );
    for (const f of result.findings) f.chunk = index;
    tally.findings.push(...result.findings);
    tally.failedChunks.push(...result.failures);
    countParsing(tally.parsing, result.parsing);
    for (const part of chunk.parts) {
      const file = run.byId.get(part.fileId) as PlannedFile;
      if (!part.whole && file.coverage.state === 'reviewed' && !file.coverage.reason)
        file.coverage.reason = 'splitAtHunks';
      if (lastChunkDone(run, part.fileId)) {
        // Before the diff goes: which open findings of this file point at lines it no longer shows.
        const mine = knownOf(file);
        if (mine.length > 0 && file.diff) for (const id of anchorsGone(mine, file.diff)) tally.gone.add(id);
        file.diff = undefined; // the review of this file is done: keep memory bounded on huge pull requests
        run.progress.settled();
      }
    }
    run.progress.report();
  }
  const stopped = tally.notStarted.length > 0 ? await stopAtHardCap(ctx, run, tally) : undefined;
  for (const failure of tally.failedChunks) {
    for (const fileId of failure.fileIds) {
      const file = run.byId.get(fileId) as PlannedFile;
      file.coverage.state = 'reviewFailed';
      file.coverage.reason = failure.reason;
    }
  }
  for (const file of run.prepared.planned)
    if (file.coverage.reason === 'splitAtHunks') file.coverage.reason = undefined;
  for (const f of run.prepared.deterministic) keyFinding(f);
  const { findings, failedChunks, parsing, gone } = tally;
  return { ...run, findings, failedChunks, parsing, gone, stopped };
}

/** What every chunk of the run is reviewed with. */
function chunkEnv(ctx: RunContext, run: Planned, openKnown: ReadonlyMap<string, KnownFinding[]>): ChunkEnv {
  const { input, settings } = ctx;
  // One cache of head files per job: chunks reading the same definition cost one provider call.
  const headFiles = new HeadFiles(ctx.source, run.revision.headSha, run.redactor);
  const changedPaths = run.files.map((f) => ({
    path: f.path,
    previousPath: f.previousPath,
    deleted: f.changeType === 'deleted',
  }));
  return {
    files: run.byId,
    changedFiles: new PathResolver(changedPaths),
    changedPaths,
    models: input.models,
    ledger: ctx.ledger,
    protocol: ctx.protocol,
    clock: input.clock,
    signal: ctx.signal,
    newId: () => input.ids.uuid(),
    nonce: run.nonce,
    pullRequest: run.pullRequest,
    config: run.config,
    dismissed: run.dismissals.map((d) => d.findingMessage),
    temperature: input.temperature ?? settings.temperature,
    verify: settings.verify,
    verifySevereOnly: run.capPlan.verifySevereOnly,
    purposeByTier: run.capPlan.purposeByTier,
    maxOutputTokens: settings.outputReserveTokens,
    focus: run.focus.lines,
    alreadyReported: new Map([...openKnown].map(([path, list]) => [path, list.map((k) => k.title)])),
    pastDecisions: run.pastDecisions,
    tools: run.toolCallsByTier
      ? {
          files: headFiles,
          callsByTier: run.toolCallsByTier,
          knowledge: input.knowledge
            ? { lookup: withChange(input.knowledge, run, changedPaths, headFiles), redactor: run.redactor }
            : undefined,
        }
      : undefined,
    hardUsd: ctx.caps.hardUsd,
    thorough: run.thoroughRun,
  };
}

/** The job's lookup with the change in front of it, read through the job's head-file cache (no second fetch). */
function withChange(
  lookup: KnowledgeLookupV1,
  run: Planned,
  files: KnowledgeChangeV1['files'],
  headFiles: HeadFiles,
): KnowledgeLookupV1 {
  if (!lookup.withChange) return lookup;
  return lookup.withChange({
    targetBranch: run.pr.targetBranch,
    headSha: run.revision.headSha,
    files,
    read: async (path, signal) => {
      const { file } = await headFiles.get(path, signal);
      return file.kind === 'text' ? file.lines.join('\n') : undefined;
    },
  });
}

/** The open findings of earlier reviews, by path (lower-cased). */
function openKnownByPath(known: readonly KnownFinding[]): Map<string, KnownFinding[]> {
  const openKnown = new Map<string, KnownFinding[]>();
  for (const k of known) {
    if (k.state !== 'open' && k.state !== 'reopened') continue;
    const list = openKnown.get(k.path.toLowerCase()) ?? [];
    list.push(k);
    openKnown.set(k.path.toLowerCase(), list);
  }
  return openKnown;
}

/** One chunk of the file is done (reviewed or kept back); whether it was its last. */
function lastChunkDone(run: Planned, fileId: number): boolean {
  const left = (run.chunksLeft.get(fileId) ?? 1) - 1;
  run.chunksLeft.set(fileId, left);
  return left === 0;
}

function countParsing(parsing: Tally['parsing'], answers: ChunkResult['parsing']): void {
  for (const p of answers) {
    const stats = parsing[p.rung] ?? { ok: 0, repaired: 0, failed: 0 };
    parsing[p.rung] = stats;
    if (!p.ok) stats.failed++;
    else if (p.repaired) stats.repaired++;
    else stats.ok++;
  }
}

/** What the hard cap kept from review: `skipped`, or `partial` when some of a file's chunks ran. */
async function stopAtHardCap(
  ctx: RunContext,
  run: Planned,
  tally: Tally,
): Promise<NonNullable<CoverageBudget['stopped']>> {
  const cut = new Set<PlannedFile>();
  for (const chunk of tally.notStarted) {
    for (const part of chunk.parts) {
      const file = run.byId.get(part.fileId) as PlannedFile;
      budgetCut(file, tally.started.has(file.id) ? 'partial' : 'skipped');
      cut.add(file);
      if (lastChunkDone(run, part.fileId)) {
        file.diff = undefined;
        run.progress.settled();
      }
    }
  }
  run.progress.report();
  const stop = { spentUsd: roundUsd(ctx.ledger.costUsd()), chunksNotStarted: tally.notStarted.length, files: cut.size };
  const pass = await ctx.protocol.pass('review', 'Stop at the hard spend cap');
  pass.event({
    kind: 'decision',
    name: 'budget.exceeded',
    eventCategory: 'operational',
    body: { ...stop, hardUsd: ctx.caps.hardUsd, paths: [...cut].map((f) => f.file.path) },
  });
  await pass.complete('skipped');
  return stop;
}

/**
 * What a chunk claims of a shared budget before its calls: its share of the plan's estimate, by the
 * tokens it sends (the estimate is linear in the chunks, so the shares add up to it).
 */
function chunkClaims(run: Planned): (chunk: PackedChunk) => number {
  const total = run.capPlan.estimate.costUsd;
  const tokens = run.chunks.reduce((n, c) => n + c.tokens, 0);
  return (chunk) => (tokens > 0 ? (total * chunk.tokens) / tokens : 0);
}
