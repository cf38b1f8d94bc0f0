import { join } from 'node:path';
import { type FindingView, MarginError, type ReviewModelTraits, reviewPullRequest } from '@margin/core';
import type { AiModelV1 } from '@margin/core/spec';
import { gitReviewSource } from '../review/git-review-source.js';
import { buildCaseRepository, type EvalCase } from './eval-case.js';
import { judgeMatch } from './judge.js';
import { fHalf, matchCase, ratio } from './score.js';

export interface CaseResult {
  id: string;
  language: string;
  kind: 'defect' | 'clean';
  expected: number;
  /** Findings posted as threads: what the evaluation scores. */
  candidates: number;
  /** Expected findings found. */
  found: number;
  /** Candidates matching nothing expected. */
  falseFindings: number;
  /** Findings kept for the summary only (not scored). */
  summaryOnly: number;
  missed: string[];
  anchor: { anchored: number; agreed: number };
  parsing: Record<string, { ok: number; repaired: number; failed: number }>;
  tokens: { input: number; output: number };
  costUsd: number;
  /** Set when the case could not be reviewed at all. */
  error?: string | undefined;
  findings: Array<
    Pick<FindingView, 'filePath' | 'startLine' | 'category' | 'severity' | 'title'> & { matched: boolean }
  >;
}

export interface EvalTotals {
  cases: number;
  failedCases: number;
  expected: number;
  candidates: number;
  found: number;
  precision: number | null;
  recall: number | null;
  f05: number | null;
  cleanCases: number;
  falseFindingsOnClean: number;
  cleanCasesWithFindings: number;
  anchorAgreement: number | null;
  parsing: Record<string, { ok: number; repaired: number; failed: number }>;
  tokensPerCase: number;
  costUsd: number;
  costPerCaseUsd: number;
}

export interface EvalRunInput {
  cases: readonly EvalCase[];
  /** The model for a case (scripted modes build one per case). */
  modelFor(c: EvalCase): AiModelV1;
  traits: ReviewModelTraits;
  /** Optional judge of descriptions, per case. */
  judgeFor?: ((c: EvalCase) => AiModelV1) | undefined;
  workDir: string;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  onCase?: ((result: CaseResult) => void) | undefined;
}

/**
 * Reviews every case as `margin review` does — its repository built from the case's trees, read
 * with git, reviewed by the engine — and scores the posted findings against the expected ones.
 * Ids and time are fixed per case, so the same model answers give the same prompts every run.
 */
export async function runEval(input: EvalRunInput): Promise<{ results: CaseResult[]; totals: EvalTotals }> {
  const results: CaseResult[] = [];
  for (const c of input.cases) {
    const result = await runCase(c, input);
    results.push(result);
    input.onCase?.(result);
  }
  return { results, totals: totalsOf(results) };
}

async function runCase(c: EvalCase, input: EvalRunInput): Promise<CaseResult> {
  const repo = join(input.workDir, c.id);
  buildCaseRepository(c, repo);
  const empty: CaseResult = {
    id: c.id,
    language: c.language,
    kind: c.kind,
    expected: c.expected.length,
    candidates: 0,
    found: 0,
    falseFindings: 0,
    summaryOnly: 0,
    missed: c.expected.map((e) => e.description),
    anchor: { anchored: 0, agreed: 0 },
    parsing: {},
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    findings: [],
  };
  let n = 0;
  let review: Awaited<ReturnType<typeof reviewPullRequest>>;
  try {
    review = await reviewPullRequest({
      source: await gitReviewSource({
        repo,
        base: 'main',
        head: 'change',
        // The reader's own git configuration (a diff algorithm, say) must not change what is asked.
        env: { ...input.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
        signal: input.signal,
      }),
      model: input.modelFor(c),
      modelTraits: input.traits,
      signal: input.signal,
      jobId: `eval-${c.id}`,
      clock: { now: () => new Date('2026-01-01T00:00:00.000Z') },
      ids: {
        uuid: () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`,
        randomHex: (bytes) => 'e7a1c0de'.repeat(bytes).slice(0, bytes * 2),
      },
    });
  } catch (error) {
    if (input.signal.aborted) throw error;
    return { ...empty, error: MarginError.isInstance(error) ? error.message : String(error) };
  }
  const candidates = review.findings.filter((f) => f.publication === 'published');
  const judge = input.judgeFor?.(c);
  const { matches } = await matchCase(c.expected, candidates, judge ? (e, f) => judgeMatch(judge, e, f) : undefined);
  const matched = new Set(matches.filter((i) => i >= 0));
  return {
    ...empty,
    candidates: candidates.length,
    found: matched.size,
    falseFindings: candidates.length - matched.size,
    summaryOnly: review.findings.filter((f) => f.publication === 'summaryOnly').length,
    missed: c.expected.filter((_, i) => (matches[i] ?? -1) < 0).map((e) => e.description),
    anchor: review.anchorAgreement,
    parsing: review.coverage.parsing ?? {},
    tokens: { input: review.usage.inputTokens, output: review.usage.outputTokens },
    costUsd: review.usage.estimatedCostUsd,
    ...(review.allFailed ? { error: failureOf(review.coverage.files) } : {}),
    findings: candidates.map((f, i) => ({
      filePath: f.filePath,
      startLine: f.startLine,
      category: f.category,
      severity: f.severity,
      title: f.title,
      matched: matched.has(i),
    })),
  };
}

/** Why no part of a case could be reviewed, as its coverage says (e.g. the model's error). */
function failureOf(files: ReadonlyArray<{ state: string; reason?: string | undefined }>): string {
  const reasons = new Set(
    files.filter((f) => f.state === 'reviewFailed').map((f) => (f.reason ?? '').replace(/^modelError: /, '')),
  );
  return [...reasons].join('; ') || 'No part of the change could be reviewed.';
}

export function totalsOf(results: readonly CaseResult[]): EvalTotals {
  const sum = (f: (r: CaseResult) => number) => results.reduce((n, r) => n + f(r), 0);
  const expected = sum((r) => r.expected);
  const candidates = sum((r) => r.candidates);
  const found = sum((r) => r.found);
  const matchedCandidates = sum((r) => r.candidates - r.falseFindings);
  const precision = ratio(matchedCandidates, candidates);
  const recall = ratio(found, expected);
  const clean = results.filter((r) => r.kind === 'clean');
  const parsing: EvalTotals['parsing'] = {};
  for (const r of results) {
    for (const [rung, s] of Object.entries(r.parsing)) {
      const t = parsing[rung] ?? { ok: 0, repaired: 0, failed: 0 };
      parsing[rung] = { ok: t.ok + s.ok, repaired: t.repaired + s.repaired, failed: t.failed + s.failed };
    }
  }
  const costUsd = sum((r) => r.costUsd);
  return {
    cases: results.length,
    failedCases: results.filter((r) => r.error).length,
    expected,
    candidates,
    found,
    precision,
    recall,
    f05: fHalf(precision ?? (candidates === 0 ? 1 : null), recall),
    cleanCases: clean.length,
    falseFindingsOnClean: clean.reduce((n, r) => n + r.falseFindings, 0),
    cleanCasesWithFindings: clean.filter((r) => r.candidates > 0).length,
    anchorAgreement: ratio(
      sum((r) => r.anchor.agreed),
      sum((r) => r.anchor.anchored),
    ),
    parsing,
    tokensPerCase: results.length ? Math.round(sum((r) => r.tokens.input + r.tokens.output) / results.length) : 0,
    costUsd: round6(costUsd),
    costPerCaseUsd: results.length ? round6(costUsd / results.length) : 0,
  };
}

const round6 = (n: number) => Math.round(n * 1_000_000) / 1_000_000;
