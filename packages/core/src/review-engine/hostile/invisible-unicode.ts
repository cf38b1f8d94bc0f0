/**
 * Invisible and direction-changing characters made visible as `⟦U+202E⟧`, so neither a model nor
 * a reader of a posted comment can be shown text that differs from what the code does (Trojan
 * Source, hidden instructions in zero-width or tag characters).
 */

// Zero-width and joiners, bidi embeddings/overrides, word joiner and invisible operators, bidi
// isolates, the byte-order mark, and Unicode tag characters.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]|\uDB40[\uDC00-\uDC7F]/g;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

export function revealInvisible(text: string): string {
  if (!hasInvisible(text)) return text;
  INVISIBLE.lastIndex = 0;
  return text.replace(INVISIBLE, (ch) => `⟦U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟧`);
}

export function hasInvisible(text: string): boolean {
  INVISIBLE.lastIndex = 0;
  return INVISIBLE.test(text);
}

/** Bidi embedding, override or isolate controls: on an added line they are a security finding. */
export function hasBidiControl(text: string): boolean {
  return BIDI.test(text);
}
