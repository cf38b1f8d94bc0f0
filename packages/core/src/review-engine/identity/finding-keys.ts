import { createHash } from 'node:crypto';

/**
 * Identity of a finding that survives what changes between runs: line shifts (keys use the anchor
 * line's text, not its number) and rewording (identifiers named in the finding, not sentences).
 *
 * - `locKey`: the file, the anchored line's normalised text and the enclosing symbol;
 * - `fingerprint` (public): `locKey` plus category, rule and identifier set;
 * - `identifiers`: backticked names, plus names that appear both on the anchor line and in the
 *   message, at most 6;
 * - `words`: the title and message start without stop words, for text similarity.
 */
export interface FindingKeys {
  locKey: string;
  fingerprint: string;
  identifiers: string[];
  words: string[];
}

export interface KeyInput {
  /** The file's path at the finding's first sighting (renames keep it). */
  path: string;
  anchorText: string;
  enclosingSymbol: string;
  category: string;
  ruleId: string | null;
  title: string;
  message: string;
}

const hash = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 16);

/** The fingerprint of one finding standing for several (the same root cause in many files). */
export function combinedFingerprint(fingerprints: readonly string[]): string {
  return hash('many', ...[...fingerprints].sort());
}

export function findingKeys(input: KeyInput): FindingKeys {
  const identifiers = identifiersOf(input.anchorText, `${input.title} ${input.message}`);
  const locKey = hash(input.path.toLowerCase(), normaliseCode(input.anchorText), normaliseCode(input.enclosingSymbol));
  return {
    locKey,
    fingerprint: hash(locKey, input.category, input.ruleId ?? '', identifiers.join(',')),
    identifiers,
    words: wordsOf(`${input.title} ${input.message.slice(0, 200)}`),
  };
}

const KEYWORDS = new Set(
  'const let var function return if else for while do switch case break continue new this class extends import export from default async await try catch finally throw typeof instanceof void null undefined true false def self none pass elif lambda yield public private protected static final int string bool boolean float double char long short byte unsigned struct enum interface type func package go chan map range defer select nil err'.split(
    ' ',
  ),
);

export function identifiersOf(anchorText: string, prose: string): string[] {
  const ticked = [...prose.matchAll(/`([^`\n]{1,60})`/g)].map((m) => (m[1] ?? '').trim());
  const onLine = new Set(
    (anchorText.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((w) => w.length >= 3 && !KEYWORDS.has(w)),
  );
  const named = (prose.match(/[A-Za-z_$][\w$]*/g) ?? []).filter((w) => onLine.has(w));
  return [...new Set([...ticked, ...named])].sort().slice(0, 6);
}

const STOP = new Set(
  'the a an and or but of to in on at by for with without from into onto is are was were be been being this that these those it its as if then than when which who whom whose what where why how can could should would may might must will shall do does did not no nor so such very just also only here there any all each every some more most less least own same other another consider ensure make sure please note issue problem code line lines value function method variable'.split(
    ' ',
  ),
);

export function wordsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .replace(/`[^`]*`/g, (m) => m.replace(/`/g, ' '))
        .split(/[^a-z0-9_$]+/)
        .filter((w) => w.length >= 3 && !STOP.has(w)),
    ),
  ];
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 0;
  const setB = new Set(b);
  let both = 0;
  for (const x of new Set(a)) if (setB.has(x)) both++;
  return both / (new Set([...a, ...b]).size || 1);
}

/** Whitespace collapsed, and redaction markers without their number (which follows fetch order). */
export function normaliseCode(text: string): string {
  return text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/⟦REDACTED:([a-z-]+)#\d+⟧/g, '⟦REDACTED:$1⟧');
}

/** What the same-finding test compares. */
export interface ComparableFinding {
  path: string;
  line: number | null;
  category: string;
  keys: FindingKeys;
}

/** Meaning-level similarity of the two (cosine of their embeddings), when embeddings are available. */
export type Similarity = number | undefined;

/**
 * The same underlying finding? In one file: (a) equal fingerprints; (b) equal location keys and the
 * same category or similar identifiers (Jaccard ≥ 0.5) or similar text (≥ 0.4, or cosine ≥ 0.85 by
 * embeddings); (c) anchors within 6 lines, the same category, and similar identifiers (or cosine ≥
 * 0.88) — an issue that survives an edit of its line.
 */
export function sameFinding(a: ComparableFinding, b: ComparableFinding, similarity: Similarity = undefined): boolean {
  if (a.path.toLowerCase() !== b.path.toLowerCase()) return false;
  if (a.keys.fingerprint === b.keys.fingerprint) return true;
  const ids = jaccard(a.keys.identifiers, b.keys.identifiers);
  const meaning = similarity ?? 0;
  if (
    a.keys.locKey === b.keys.locKey &&
    (a.category === b.category || ids >= 0.5 || jaccard(a.keys.words, b.keys.words) >= 0.4 || meaning >= 0.85)
  ) {
    return true;
  }
  return (
    a.line !== null &&
    b.line !== null &&
    Math.abs(a.line - b.line) <= 6 &&
    a.category === b.category &&
    (ids >= 0.5 || meaning >= 0.88)
  );
}

/** Cosine similarity; 0 when either vector is missing. */
export function cosine(a: readonly number[] | undefined, b: readonly number[] | undefined): number {
  if (!a || !b || a.length === 0 || a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
