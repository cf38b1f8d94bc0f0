import type { CoverageBudget, CoverageManifest } from '../coverage.js';
import type { EngineFinding } from '../engine-finding.js';

export interface SummaryInput {
  headSha: string;
  findings: readonly EngineFinding[];
  coverage: CoverageManifest;
  /** What became of findings earlier reviews posted. */
  lifecycle?: { resolved: number; reopened: number; stillOpen: number } | undefined;
}

const MAX_LISTED = 25;

/**
 * The pull-request-level summary, written from the outcome, never by a model: it names only
 * findings that survived (posted, or kept for the summary), counts what was held back by reason,
 * and always says what was and was not reviewed — a quiet review never hides a failed one.
 */
export function renderSummary(input: SummaryInput): string {
  const { coverage, findings } = input;
  const published = findings.filter((f) => f.publication === 'published');
  const summaryOnly = findings.filter((f) => f.publication === 'summaryOnly');
  const reviewedFiles = coverage.counts.reviewed + coverage.counts.partial;
  const lines = [
    '### Margin review',
    '',
    `Reviewed ${reviewedFiles} of ${coverage.files.length} changed file${coverage.files.length === 1 ? '' : 's'} at \`${input.headSha.slice(0, 12)}\`: ${
      published.length === 0
        ? 'no new comments'
        : `${published.length} comment${published.length === 1 ? '' : 's'} posted`
    }${summaryOnly.length > 0 ? `, ${summaryOnly.length} more point${summaryOnly.length === 1 ? '' : 's'} below` : ''}.`,
  ];

  const life = input.lifecycle;
  if (life && (life.resolved > 0 || life.stillOpen > 0 || life.reopened > 0)) {
    const parts = [];
    if (life.resolved > 0)
      parts.push(`${life.resolved} earlier finding${life.resolved === 1 ? '' : 's'} resolved by this push`);
    if (life.reopened > 0) parts.push(`${life.reopened} reopened`);
    if (life.stillOpen > 0) parts.push(`${life.stillOpen} still open from earlier reviews`);
    lines.push('', `${parts.join('; ')}.`);
  }
  if (published.length > 0) {
    lines.push('', '**Posted**');
    for (const f of published.slice(0, MAX_LISTED)) lines.push(`- ${describe(f)}`);
  }
  if (summaryOnly.length > 0) {
    lines.push('', '<details><summary>Not posted as comments</summary>', '');
    for (const f of summaryOnly.slice(0, MAX_LISTED))
      lines.push(`- ${describe(f)} — _${REASON_TEXT[f.reason ?? ''] ?? f.reason ?? 'held back'}_`);
    if (summaryOnly.length > MAX_LISTED) lines.push(`- …and ${summaryOnly.length - MAX_LISTED} more`);
    lines.push('', '</details>');
  }

  const held = countBy(
    findings
      .filter((f) => f.publication === 'suppressed' || f.publication === 'dropped')
      .map((f) => f.reason ?? 'other'),
  );
  if (held.size > 0) {
    lines.push('', `Held back: ${[...held].map(([reason, n]) => `${n} ${REASON_TEXT[reason] ?? reason}`).join(', ')}.`);
  }
  lines.push('', coverageLine(coverage));
  return lines.join('\n');
}

function describe(f: EngineFinding): string {
  const where = f.places
    ? f.places.map((p) => `\`${p.path}${p.line ? `:${p.line}` : ''}\``).join(', ')
    : `\`${f.anchor ? `${f.anchor.path}:${f.anchor.startLine}` : (f.path ?? 'pull request')}\``;
  return `**${f.severity}** ${where} — ${escapeInline(f.title)}`;
}

function coverageLine(coverage: CoverageManifest): string {
  const c = coverage.counts;
  const skippedWhy = countBy(coverage.files.filter((f) => f.state === 'skipped').map((f) => f.reason ?? 'other'));
  const parts = [`${c.reviewed} reviewed`];
  if (c.partial > 0) parts.push(`${c.partial} partially reviewed`);
  if (c.carriedForward > 0) parts.push(`${c.carriedForward} unchanged since the last review (carried forward)`);
  if (c.skipped > 0)
    parts.push(`${c.skipped} skipped (${[...skippedWhy].map(([r, n]) => `${n} ${REASON_TEXT[r] ?? r}`).join(', ')})`);
  const out = [`Coverage: ${parts.join(', ')}.`];
  const failed = coverage.files.filter((f) => f.state === 'reviewFailed');
  if (failed.length > 0) {
    out.push(
      `⚠️ ${failed.length} file${failed.length === 1 ? '' : 's'} could not be reviewed, so no comment there does not mean no problem: ${failed
        .slice(0, 10)
        .map((f) => `\`${f.path}\``)
        .join(', ')}${failed.length > 10 ? ', …' : ''}.`,
    );
  }
  out.push(...budgetLines(coverage));
  if (coverage.listingTruncated) out.push(`⚠️ ${coverage.listingTruncated.reason} Files past that were not reviewed.`);
  if (coverage.injectionSuspected) {
    out.push('⚠️ This pull request contains text that reads like instructions to a reviewer; it was treated as data.');
  }
  return out.join('\n');
}

/** Each ladder step as the summary says it (`files`: how many `skipFiles` skipped). */
const LADDER_WORDS: Record<CoverageBudget['degraded'][number]['step'], (files: number) => string> = {
  thoroughOff: () => 'thorough mode was turned off (each chunk was asked once)',
  verifySevereOnly: () => 'only errors and warnings were checked by the verifier',
  mediumForHigh: () => 'high-risk chunks were reviewed with the medium-effort model',
  triageForLow: () => 'low-risk chunks were reviewed with the triage model',
  skipFiles: (files) => `${files} lower-risk file${files === 1 ? ' was' : 's were'} skipped`,
};

/** What the spend caps changed, in words: the ladder's steps on the estimate, and a stop at the hard cap. */
function budgetLines(coverage: CoverageManifest): string[] {
  const budget = coverage.budget;
  if (!budget) return [];
  const lines: string[] = [];
  const first = budget.degraded[0];
  const last = budget.degraded.at(-1);
  if (first && last) {
    const what = budget.degraded.map((d) => LADDER_WORDS[d.step](d.files ?? 0));
    lines.push(
      `The estimated cost (US$${first.estimateBeforeUsd}) was over the soft spend cap of US$${budget.softUsd} per review, so ${what.join(' and ')} (estimate now US$${last.estimateAfterUsd}).`,
    );
  }
  if (budget.stopped) {
    const n = budget.stopped.files;
    lines.push(
      `⚠️ The review stopped at the hard spend cap of US$${budget.hardUsd} per review (US$${budget.stopped.spentUsd} spent), leaving ${n} file${n === 1 ? '' : 's'} not fully reviewed.`,
    );
  }
  const kept = coverage.files.filter((f) => f.reason === 'budget');
  if (kept.length > 0) {
    lines.push(
      `Not fully reviewed within the spend caps, so no comment there does not mean no problem: ${kept
        .slice(0, 10)
        .map((f) => `\`${f.path}\``)
        .join(', ')}${kept.length > 10 ? ', …' : ''}.`,
    );
  }
  return lines;
}

function countBy(values: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return counts;
}

function escapeInline(text: string): string {
  return text.replace(/[\r\n]+/g, ' ');
}

/** Reasons in words, for the summary; the job result keeps the codes. */
const REASON_TEXT: Record<string, string> = {
  belowMinimumSeverity: 'below the minimum severity',
  fileBudget: 'over the per-file comment limit',
  pullRequestBudget: 'over the comment limit',
  categoryPolicy: 'not worth a thread of its own',
  hedged: 'tentative',
  outsideDiff: 'outside the changed lines',
  outsideFocus: 'about code this push did not change',
  resolvedBefore: 'resolved before',
  informational: 'informational',
  lowVerifierScore: 'not confirmed by the check',
  qualityOpinion: 'a matter of taste',
  unchangedCode: 'about unchanged code',
  publishFailed: 'the provider refused the comment',
  deletedFile: 'about a deleted file',
  quoteNotFound: 'not found in the diff',
  alreadyReported: 'already reported',
  existingThread: 'already discussed in a thread',
  dismissed: 'dismissed before',
  memory: 'rejected or accepted by people before',
  duplicateInRun: 'duplicates',
  consolidated: 'merged into one point',
  verifierRejected: 'rejected by the check',
  refuted: 'refuted by the code',
  noConsensus: 'not agreed on by enough thorough-mode samples',
  unknownPath: 'about files not in this change',
  binary: 'binary',
  lockFile: 'lock file',
  generated: 'generated',
  vendored: 'vendored',
  excludedByConfig: 'excluded by .margin/config.yml',
  deleteOnly: 'deleted',
  renameOnly: 'renamed only',
  formattingOnly: 'formatting only',
  noTextChange: 'no text change',
  budget: 'over the spend cap',
  triageApproved: 'judged by triage not to change behaviour',
};
