import { MarginError } from '../../kernel/index.js';
import type { CommittableSuggestionSyntax } from '../../scm-provider/index.js';
import type { EngineFinding } from '../engine-finding.js';
import { sanitizeOutbound } from '../hostile/outbound.js';

/**
 * A finding as a thread's first comment: severity and title, the message, the places of a root cause
 * found in several files, and a replacement when there is one — committable with one click where the
 * family takes suggestions (`syntax`) and the replacement is exactly the anchored lines, else plain.
 */
export function inlineBody(f: EngineFinding, hostBaseUrl?: string, syntax?: CommittableSuggestionSyntax): string {
  const parts = [`**${f.severity}** · ${f.category} — **${f.title}**`, '', f.message];
  if (f.places) {
    parts.push('', `The same in ${f.places.length} places:`);
    for (const p of f.places) parts.push(`- \`${p.path}${p.line ? `:${p.line}` : ''}\``);
  }
  if (f.suggestion) {
    const longestRun = Math.max(2, ...[...f.suggestion.matchAll(/`+/g)].map((m) => m[0].length));
    const fenceMark = '`'.repeat(longestRun + 1);
    const info = syntax && committable(f) ? suggestionInfo(syntax, f) : undefined;
    if (info) parts.push('', `${fenceMark}${info}`, withoutFinalNewline(f.suggestion), fenceMark);
    else parts.push('', 'Suggested change:', `${fenceMark}`, f.suggestion, fenceMark);
  }
  return sanitizeOutbound(parts.join('\n'), { allowedHost: hostOf(hostBaseUrl) });
}

/**
 * Whether the suggestion replaces exactly the lines the comment is on, so committing it does what
 * the finding says: anchored on the new side where the model's own line numbers put it (by its quote
 * or its numbers, never moved to a nearby line or cut short), and replacement text rather than a
 * diff. Anchors on the new side lie inside one hunk's shown lines (see `anchorFinding`), which are
 * the lines every family with suggestions comments on.
 */
export function committable(f: EngineFinding): boolean {
  const a = f.anchor;
  const { startLine, endLine } = f.proposed;
  if (!a || !f.suggestion || a.side !== 'new' || a.note) return false;
  if (a.method !== 'quote' && a.method !== 'line') return false;
  if (startLine === null || endLine === null || endLine - startLine !== a.endLine - a.startLine) return false;
  return !looksLikeDiff(f.suggestion);
}

/** The fence's info string: GitHub replaces the commented lines; GitLab counts from the comment's last line. */
function suggestionInfo(syntax: CommittableSuggestionSyntax, f: EngineFinding): string {
  if (syntax === 'suggestionBlock') return 'suggestion';
  const above = (f.anchor?.endLine ?? 0) - (f.anchor?.startLine ?? 0);
  return `suggestion:-${above}+0`;
}

/** Hunk or file headers, or `+`/`-` lines of both kinds and nothing else: a diff, which a suggestion must not be. */
function looksLikeDiff(text: string): boolean {
  if (/^@@ .*@@/m.test(text) || /^(---|\+\+\+) /m.test(text)) return true;
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return (
    lines.some((l) => l.startsWith('+')) &&
    lines.some((l) => l.startsWith('-')) &&
    lines.every((l) => /^[+\- ]/.test(l))
  );
}

/** A fence's content ends at the line before the fence; a trailing newline would add an empty line. */
function withoutFinalNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/** The host of the provider's base URL, whose links outbound text may keep. */
export function hostOf(url: string | undefined): string | undefined {
  return url && URL.canParse(url) ? new URL(url).host : undefined;
}

/** A failed provider call as the protocol and the outbox record it: its message, unless it is internal. */
export function messageOf(error: unknown): string {
  return MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The call failed.';
}
