/**
 * Code identifiers hold several words (`parseConfigFile`, `MAX_RETRY_COUNT`, `user-id`); full-text
 * engines see one token. The index stores the parts beside the text, and queries ask for both, so
 * "config file" finds `parseConfigFile` and `parseConfigFile` finds `parse_config_file`.
 */

const IDENTIFIER = /[\p{L}\p{N}_$-]+/gu;
/** A token `identifierParts` leaves whole: lower-case letters and digits only. */
const ONE_WORD = /^[\p{Ll}\p{N}]+$/u;
/** Queries of more words than this ask for the first ones only: the rest rarely changes the ranking. */
const MAX_QUERY_TERMS = 32;

/** The words of one identifier, lower-cased; one word stays as it is. */
export function identifierParts(identifier: string): string[] {
  return identifier
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .split(/[\s_$-]+/u)
    .map((p) => p.toLowerCase())
    .filter((p) => p.length > 0);
}

/** The parts of every compound identifier of `text`, each once, space-separated: a chunk's `terms`. */
export function compoundTerms(text: string): string {
  const parts = new Set<string>();
  // Each token once, and lower-case words without separators (most of code: `return`, `const`,
  // `value`) are one part, so only the rest is split.
  for (const token of new Set(text.match(IDENTIFIER))) {
    if (ONE_WORD.test(token)) continue;
    const split = identifierParts(token);
    if (split.length > 1) for (const p of split) parts.add(p);
  }
  return [...parts].join(' ');
}

/** What a query asks the index for: each word as written (lower-cased) and its identifier parts. */
export function queryTerms(query: string): string[] {
  const terms = new Set<string>();
  for (const token of query.match(IDENTIFIER) ?? []) {
    const whole = token.toLowerCase().replace(/^[-$]+|[-$]+$/g, '');
    if (whole) terms.add(whole);
    for (const p of identifierParts(token)) terms.add(p);
  }
  return [...terms].slice(0, MAX_QUERY_TERMS);
}
