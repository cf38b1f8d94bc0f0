import { askStructured, type StructuredOutcome } from '../../ai-model/index.js';
import type { Clock } from '../../kernel/index.js';
import { MarginError } from '../../kernel/index.js';
import { TRIAGE_ANSWER_SPEC, type TriageAnswer, type TriageItem } from '../output/triage-answer.js';
import { forEachPooled } from '../pipeline/pool.js';
import type { PlannedFile } from '../pipeline/prepare-files.js';
import { meteredChat, type UsageLedger } from '../pipeline/usage-ledger.js';
import { isSensitivePath } from '../plan/tiers.js';
import { TRIAGE_SYSTEM_PROMPT, triageUserMessage } from '../prompt/triage-prompt.js';
import type { ProtocolPass, ProtocolWriter } from '../protocol/protocol-writer.js';
import type { ReviewModel, ReviewModels } from '../review-engine-v1.js';
import { decideTier } from './decide-tier.js';
import { DEFAULT_TRIAGE_BATCH, siblingsIndex, triageBatches, triageInput } from './triage-batches.js';

export interface TriageInput {
  /** The files the plan will review (after every deterministic exclusion), in plan order. */
  files: readonly PlannedFile[];
  /** Every changed path of the pull request, for the sibling lists. */
  changedPaths: readonly string[];
  /** Paths whose added text the injection scanner flagged. */
  injectionPaths: ReadonlySet<string>;
  models: ReviewModels;
  ledger: UsageLedger;
  protocol: ProtocolWriter;
  /** The plan stage's pass: every decision and degradation is recorded there. */
  plan: ProtocolPass;
  clock: Clock;
  signal: AbortSignal;
  nonce: string;
  concurrency: number;
  maxOutputTokens: number;
  /** The hard spend cap: no triage call starts once the spend has reached it. */
  hardUsd?: number | undefined;
}

export interface TriageOutcome {
  /** Files whose tier or skip a triage answer decided. */
  decided: number;
  /** Files skipped as `triageApproved`. */
  skipped: number;
  /** Files that kept their heuristic tier because triage gave no usable answer for them. */
  degraded: number;
  calls: number;
}

/**
 * The optional triage pass (reference §6.4), run only when the client maps `reviewTriage` to a
 * model of its own: an unmapped purpose resolves to `reviewDefault`, and spending the reviewing
 * model on triage would add calls without a cheaper opinion. `undefined` when it did not run.
 *
 * Files go in batches (several per call) with bounded concurrency; each answer passes the
 * deterministic guards of `decideTier` and changes the planned file's tier in place, or marks it
 * `skipped` / `triageApproved`. Anything that goes wrong leaves the heuristic tier: triage never
 * fails a review.
 */
export async function triageFiles(input: TriageInput): Promise<TriageOutcome | undefined> {
  if (input.files.length === 0) return undefined;
  let model: ReviewModel;
  try {
    model = await input.models.forPurpose('reviewTriage');
  } catch (error) {
    if (input.signal.aborted) throw error;
    // A broken mapping is the client's to fix; the review goes on with the heuristic tiers.
    degrade(input, input.files, `modelUnavailable: ${messageOf(error)}`);
    return { decided: 0, skipped: 0, degraded: input.files.length, calls: 0 };
  }
  if (model.resolvedPurpose !== 'reviewTriage') return undefined;

  const outcome: TriageOutcome = { decided: 0, skipped: 0, degraded: 0, calls: 0 };
  const siblings = siblingsIndex(input.changedPaths);
  const batches = triageBatches(input.files, batchLimits(model));
  await forEachPooled(batches, input.concurrency, async (batch, index) => {
    if (input.hardUsd !== undefined && input.ledger.costUsd() >= input.hardUsd) {
      degrade(input, batch, 'budget');
      outcome.degraded += batch.length;
      return;
    }
    const answered = await askBatch(
      input,
      model,
      batch,
      siblings,
      `Triage ${batch.length} file${batch.length === 1 ? '' : 's'} (call ${index + 1} of ${batches.length})`,
    );
    outcome.calls += answered.calls;
    if (typeof answered.items === 'string') {
      degrade(input, batch, answered.items);
      outcome.degraded += batch.length;
      return;
    }
    const unanswered: PlannedFile[] = [];
    for (const file of batch) {
      const item = answered.items.get(normalPath(file.file.path));
      if (!item) {
        unanswered.push(file);
        continue;
      }
      apply(input, file, item);
      outcome.decided++;
      if (file.coverage.state === 'skipped') outcome.skipped++;
    }
    if (unanswered.length > 0) {
      degrade(input, unanswered, 'notAnswered');
      outcome.degraded += unanswered.length;
    }
  });
  return outcome;
}

/** One triage call: the answers by path, or why there are none. */
async function askBatch(
  input: TriageInput,
  model: ReviewModel,
  batch: readonly PlannedFile[],
  siblings: (path: string) => string[],
  label: string,
): Promise<{ items: Map<string, TriageItem> | string; calls: number }> {
  const pass = await input.protocol.pass('triage', label);
  const chat = meteredChat(model, 'reviewTriage', input.ledger, pass, input.clock, input.signal);
  const request = {
    system: TRIAGE_SYSTEM_PROMPT,
    messages: [
      {
        role: 'user' as const,
        content: triageUserMessage(
          input.nonce,
          batch.map((f) => triageInput(f, siblings)),
        ),
      },
    ],
    temperature: 0,
    maxOutputTokens: input.maxOutputTokens,
  };
  let outcome: StructuredOutcome<TriageAnswer>;
  try {
    outcome = await askStructured(chat, request, TRIAGE_ANSWER_SPEC, model);
  } catch (error) {
    if (input.signal.aborted) throw error;
    await pass.complete('failed');
    return { items: `modelError: ${messageOf(error)}`, calls: 1 };
  }
  const tokens = {
    inputTokens: outcome.usage.inputTokens,
    cachedInputTokens: outcome.usage.cachedInputTokens,
    outputTokens: outcome.usage.outputTokens,
  };
  if (!outcome.ok) {
    pass.event({
      kind: 'failure',
      name: 'answer.unreadable',
      eventCategory: 'ai-call',
      body: { rung: outcome.rung, calls: outcome.calls, problem: outcome.problem },
    });
    await pass.complete('failed', tokens);
    return { items: 'unreadableAnswer', calls: outcome.calls };
  }
  const answer = outcome.value;
  pass.event({
    kind: 'decision',
    name: 'answer.read',
    eventCategory: 'ai-call',
    body: { rung: outcome.rung, repaired: outcome.repaired, files: answer.value.length, coercions: answer.coercions },
  });
  for (const dropped of answer.dropped) {
    pass.event({ kind: 'decision', name: 'item.dropped', eventCategory: 'filtering', body: dropped });
  }
  await pass.complete('succeeded', tokens);
  // The first answer for a path counts; paths the batch does not hold are ignored.
  const items = new Map<string, TriageItem>();
  for (const item of answer.value) {
    const key = normalPath(item.path);
    if (!items.has(key)) items.set(key, item);
  }
  return { items, calls: outcome.calls };
}

function apply(input: TriageInput, file: PlannedFile, item: TriageItem): void {
  const heuristic = file.tier;
  const decision = decideTier(
    {
      heuristic,
      sensitive: isSensitivePath(file.file.path),
      injectionSuspected: input.injectionPaths.has(file.file.path),
    },
    item,
  );
  file.tier = decision.tier;
  file.coverage.tier = decision.tier;
  if (decision.skipped) {
    file.coverage.state = 'skipped';
    file.coverage.reason = 'triageApproved';
  }
  input.plan.event({
    kind: 'decision',
    name: 'triage.decided',
    eventCategory: 'planning',
    body: {
      path: file.file.path,
      heuristicTier: heuristic,
      triage: { tier: item.tier, securityEscalate: item.securityEscalate, skip: item.skip, why: item.why },
      finalTier: decision.tier,
      skipped: decision.skipped,
      ...(decision.refused ? { refused: decision.refused } : {}),
    },
  });
}

function degrade(input: TriageInput, files: readonly PlannedFile[], reason: string): void {
  input.plan.event({
    kind: 'warning',
    name: 'triage.degraded',
    eventCategory: 'planning',
    body: { reason, paths: files.map((f) => f.file.path), tiers: files.map((f) => f.tier) },
  });
}

/**
 * A smaller window gets smaller batches: the prompt and the answer reserve come off it, and diff
 * characters are counted at 3 per token (code runs about 3.5) with a margin.
 */
function batchLimits(model: ReviewModel) {
  const window = model.maxContextTokens;
  if (window === null) return DEFAULT_TRIAGE_BATCH;
  const room = Math.floor((window - 4000) * 3 * 0.9);
  return { ...DEFAULT_TRIAGE_BATCH, maxChars: Math.max(6000, Math.min(DEFAULT_TRIAGE_BATCH.maxChars, room)) };
}

function normalPath(path: string): string {
  return path
    .trim()
    .replace(/^\.?\//, '')
    .toLowerCase();
}

function messageOf(error: unknown): string {
  return MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The model call failed.';
}
