import type { CaseResult, EvalTotals } from './eval-run.js';

const pct = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const usd = (n: number) => `$${n.toFixed(4)}`;

/** The per-case table and the totals, for a terminal or a CI log. */
export function formatEvalTable(label: string, results: readonly CaseResult[], totals: EvalTotals): string {
  const head = ['case', 'lang', 'kind', 'expected', 'posted', 'found', 'false', 'anchor', 'tokens', 'cost'];
  const rows = results.map((r) => [
    r.error ? `${r.id} (failed)` : r.id,
    r.language,
    r.kind,
    String(r.expected),
    String(r.candidates),
    String(r.found),
    String(r.falseFindings),
    r.anchor.anchored ? `${r.anchor.agreed}/${r.anchor.anchored}` : '—',
    String(r.tokens.input + r.tokens.output),
    usd(r.costUsd),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const numeric = (i: number) => i >= 3;
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const parsing = Object.entries(totals.parsing)
    .map(([rung, s]) => `${rung} ${s.ok} ok, ${s.repaired} repaired, ${s.failed} failed`)
    .join('; ');
  return [
    `margin eval: ${label}`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `precision ${pct(totals.precision)}  recall ${pct(totals.recall)}  F0.5 ${pct(totals.f05)}  (${totals.found} of ${totals.expected} expected found; ${totals.candidates} posted)`,
    `false findings on clean cases: ${totals.falseFindingsOnClean} (${totals.cleanCasesWithFindings} of ${totals.cleanCases} clean cases)`,
    `anchor agreement: ${pct(totals.anchorAgreement)}   parse per rung: ${parsing || '—'}`,
    `tokens per case: ${totals.tokensPerCase}   cost: ${usd(totals.costUsd)} (${usd(totals.costPerCaseUsd)} per case)`,
    ...(totals.failedCases > 0 ? [`cases that could not be reviewed: ${totals.failedCases}`] : []),
    '',
  ].join('\n');
}
