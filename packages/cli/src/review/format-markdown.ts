import type { FindingView } from '@margin/core';
import { reportedFindings } from './fail-on.js';
import type { ReviewReport } from './report.js';

/**
 * The summary as Margin posts it on a pull request, then every reported finding in full — for a
 * CI job summary or a comment posted by the pipeline itself.
 */
export function formatMarkdown(report: ReviewReport): string {
  const findings = reportedFindings(report.review.findings);
  const lines = [report.review.summary ?? '### Margin review', ''];
  if (findings.length > 0) {
    lines.push('#### Findings', '');
    for (const f of findings) lines.push(...finding(f), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function finding(f: FindingView): string[] {
  const out = [
    `- **${f.severity}** · ${f.category} — **${escapeInline(f.title)}** (${where(f)})`,
    '',
    indent(f.message),
  ];
  if (f.suggestion) {
    const fence = '`'.repeat(Math.max(3, ...[...f.suggestion.matchAll(/`+/g)].map((m) => m[0].length + 1)));
    out.push('', indent(`Suggested change:\n${fence}\n${f.suggestion}\n${fence}`));
  }
  return out;
}

export function where(f: FindingView): string {
  if (f.places) return f.places.map((p) => `\`${p.path}${p.line ? `:${p.line}` : ''}\``).join(', ');
  if (!f.filePath) return 'the change as a whole';
  const lines = f.startLine ? `:${f.startLine}${f.endLine && f.endLine !== f.startLine ? `-${f.endLine}` : ''}` : '';
  return `\`${f.filePath}${lines}\`${f.side === 'old' ? ' (removed lines)' : ''}`;
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `  ${l}` : l))
    .join('\n');

const escapeInline = (text: string) => text.replace(/[*_`[\]<>]/g, (c) => `\\${c}`);
