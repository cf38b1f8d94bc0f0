/**
 * Untrusted text (diffs, titles, descriptions, comments) reaches a model only inside a fence that
 * carries a per-job nonce: `<<<UNTRUSTED diff nonce=7QK2WX9A>>> … <<<END 7QK2WX9A>>>`. The system
 * prompt says fenced text is data. Content that contains fence syntax or the nonce is escaped
 * first, so a pull request cannot close the fence and speak as the instructions.
 */
export function fence(kind: string, nonce: string, content: string): string {
  return `<<<UNTRUSTED ${kind} nonce=${nonce}>>>\n${escapeFenced(content, nonce)}\n<<<END ${nonce}>>>`;
}

export function escapeFenced(content: string, nonce: string): string {
  let out = escapeFenceSyntax(content);
  if (nonce && out.includes(nonce)) out = out.replaceAll(nonce, `${nonce.slice(0, 1)}${NONCE_BREAK}${nonce.slice(1)}`);
  return out;
}

/** Splits a nonce echoed in fenced text; code cannot carry it raw (invisible characters are revealed first). */
const NONCE_BREAK = '\u2060';

function escapeFenceSyntax(content: string): string {
  return content.replaceAll('<<<', '‹‹‹').replaceAll('>>>', '›››');
}

/**
 * Text as it compares after fencing, whichever form it was copied in: a model quoting a line the
 * fence escaped (`‹‹‹` for `<<<` in a shell here-string) and the line as the file holds it give the
 * same result. Anchoring compares quotes with lines through this, never the raw forms.
 */
export function foldFenced(text: string): string {
  return escapeFenceSyntax(text.replaceAll(NONCE_BREAK, ''));
}

/** A nonce from random hex: 8 characters of a job's randomness. */
export function nonceFrom(randomHex: string): string {
  return randomHex.slice(0, 8).toUpperCase();
}
