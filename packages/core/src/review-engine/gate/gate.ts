import { demote, type EngineFinding, isCandidate, SEVERITY_RANK } from '../engine-finding.js';
import type { FindingCategory, Severity } from '../output/review-answer.js';
import type { Verdict } from '../verify/verify-answer.js';

export interface GatePolicy {
  /** Below it, findings go to the summary only. `.margin/config.yml` `minimumSeverity`. */
  minimumSeverity: Severity;
  maxInlinePerFile: number;
  /** `.margin/config.yml` `maxComments`. */
  maxInlinePerPullRequest: number;
  /** Categories that are worth a line in the summary, never a thread of their own. */
  summaryOnlyCategories: readonly FindingCategory[];
}

export const DEFAULT_GATE_POLICY: GatePolicy = {
  minimumSeverity: 'warning',
  maxInlinePerFile: 3,
  maxInlinePerPullRequest: 10,
  summaryOnlyCategories: ['maintainability', 'docs', 'tests'],
};

const DOWN: Record<Severity, Severity> = {
  error: 'warning',
  warning: 'suggestion',
  suggestion: 'suggestion',
  info: 'info',
};
const HEDGES = /\b(?:might|may want|consider|ensure that|make sure|it would be good|double-check|verify that)\b/i;

/**
 * Applies the verifier's verdict: a low score drops or demotes, the feature flags adjust, and the
 * confidence becomes the mean of the model's and the verifier's. Without a verdict (the verifier
 * failed) no score is invented: the generator's confidence stands and an error is capped at warning.
 */
export function applyVerdict(finding: EngineFinding, verdict: Verdict | undefined): void {
  if (!verdict) {
    if (finding.severity === 'error') finding.severity = 'warning';
    return;
  }
  finding.verdict = verdict;
  finding.confidence = Math.round((finding.confidence + verdict.score * 10) / 2);
  if (verdict.features.suggestionIsCorrect === false) finding.suggestion = null;
  if (verdict.score <= 3) {
    demote(finding, 'dropped', 'verifierRejected');
    return;
  }
  if (verdict.score <= 5) demote(finding, 'summaryOnly', 'lowVerifierScore');
  if (verdict.features.isQualityOpinion && !verdict.features.isDefect) demote(finding, 'summaryOnly', 'qualityOpinion');
  if (verdict.features.targetsUnchangedCode) demote(finding, 'summaryOnly', 'unchangedCode');
  if (verdict.features.requiresAssumedInput && finding.severity !== 'error') finding.severity = DOWN[finding.severity];
}

/**
 * The deterministic policy, in order: confidence floors, category policy, hedges, scope, minimum
 * severity, then the per-file and per-pull-request budgets, best findings first. Every move is
 * reported through `decided` with its reason.
 */
export function gateFindings(
  findings: EngineFinding[],
  policy: GatePolicy,
  decided: (finding: EngineFinding, step: string) => void,
): void {
  for (const f of findings) {
    if (!isCandidate(f)) continue;
    const before = f.severity;
    if (f.severity === 'error' && f.confidence < 80) f.severity = 'warning';
    if (f.severity === 'warning' && f.confidence < 60) f.severity = 'suggestion';
    if (f.severity !== before) decided(f, `confidenceFloor:${before}→${f.severity}`);
    const moved =
      (f.severity === 'info' && demote(f, 'summaryOnly', 'informational')) ||
      (policy.summaryOnlyCategories.includes(f.category) &&
        f.source === 'model' &&
        demote(f, 'summaryOnly', 'categoryPolicy')) ||
      (f.severity !== 'error' && HEDGES.test(f.message) && demote(f, 'summaryOnly', 'hedged')) ||
      // A root cause consolidated across files is a pull-request-level finding by design.
      (!f.anchor && !f.places && demote(f, 'summaryOnly', 'outsideDiff')) ||
      (SEVERITY_RANK[f.severity] < SEVERITY_RANK[policy.minimumSeverity] &&
        demote(f, 'summaryOnly', 'belowMinimumSeverity'));
    if (moved) decided(f, f.reason ?? '');
  }

  const ranked = findings
    .filter((f) => f.publication === 'published')
    .sort(
      (a, b) =>
        SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
        (b.verdict?.score ?? 0) - (a.verdict?.score ?? 0) ||
        b.confidence - a.confidence ||
        a.id.localeCompare(b.id),
    );
  const perFile = new Map<string, number>();
  let total = 0;
  for (const f of ranked) {
    const path = f.anchor?.path ?? '';
    const inFile = perFile.get(path) ?? 0;
    if (inFile >= policy.maxInlinePerFile) {
      if (demote(f, 'summaryOnly', 'fileBudget')) decided(f, 'fileBudget');
      continue;
    }
    if (total >= policy.maxInlinePerPullRequest) {
      if (demote(f, 'summaryOnly', 'pullRequestBudget')) decided(f, 'pullRequestBudget');
      continue;
    }
    perFile.set(path, inFile + 1);
    total++;
  }
}
