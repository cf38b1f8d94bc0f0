import { MarginError } from '../../kernel/index.js';
import type { EngineFinding } from '../engine-finding.js';
import { sanitizeOutbound } from '../hostile/outbound.js';

/**
 * A finding as a thread's first comment: severity and title, the message, the places of a root cause
 * found in several files, and a replacement when there is one.
 */
export function inlineBody(f: EngineFinding, hostBaseUrl?: string): string {
  const parts = [`**${f.severity}** · ${f.category} — **${f.title}**`, '', f.message];
  if (f.places) {
    parts.push('', `The same in ${f.places.length} places:`);
    for (const p of f.places) parts.push(`- \`${p.path}${p.line ? `:${p.line}` : ''}\``);
  }
  if (f.suggestion) {
    const longestRun = Math.max(2, ...[...f.suggestion.matchAll(/`+/g)].map((m) => m[0].length));
    const fenceMark = '`'.repeat(longestRun + 1);
    parts.push('', 'Suggested change:', `${fenceMark}`, f.suggestion, fenceMark);
  }
  return sanitizeOutbound(parts.join('\n'), { allowedHost: hostOf(hostBaseUrl) });
}

/** The host of the provider's base URL, whose links outbound text may keep. */
export function hostOf(url: string | undefined): string | undefined {
  return url && URL.canParse(url) ? new URL(url).host : undefined;
}

/** A failed provider call as the protocol and the outbox record it: its message, unless it is internal. */
export function messageOf(error: unknown): string {
  return MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The call failed.';
}
