import { MarginError } from '@margin/core/spec';

/**
 * A status description as providers show it: one line (a newline would be dropped or refused), cut to
 * the provider's limit with an ellipsis so a long reason never makes the whole status fail.
 */
export function statusDescription(text: string, limit: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= limit ? line : `${line.slice(0, limit - 1).trimEnd()}…`;
}

/** A commit SHA as status endpoints take it in their path; anything else is a caller's mistake. */
export function statusCommit(sha: string): string {
  if (!/^[0-9a-f]{7,64}$/i.test(sha)) throw MarginError.validation('A commit status needs the commit SHA.');
  return sha.toLowerCase();
}
