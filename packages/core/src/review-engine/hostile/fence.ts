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
  let out = content.replaceAll('<<<', '‹‹‹').replaceAll('>>>', '›››');
  if (nonce && out.includes(nonce)) out = out.replaceAll(nonce, `${nonce.slice(0, 1)}\u2060${nonce.slice(1)}`);
  return out;
}

/** A nonce from random hex: 8 characters of a job's randomness. */
export function nonceFrom(randomHex: string): string {
  return randomHex.slice(0, 8).toUpperCase();
}
