import { cosine, wordsOf } from '../identity/finding-keys.js';
import { holdsBack, type PastDecision } from './thread-memory.js';

/** By meaning: the reference's retrieval threshold for embeddings of past resolutions. */
export const MEANING_THRESHOLD = 0.8;
/** By words, when no embedding model serves the client (see `textSimilarity`). */
export const TEXT_THRESHOLD = 0.5;
/** Past decisions shown to the model per reviewed file. */
export const PER_FILE = 3;

/** A word without the endings rewording changes most: "discounted" and "discounts" are "discount". */
function stem(word: string): string {
  return word.replace(/(ings?|ed|es|s)$/, '') || word;
}

const stems = (text: string) => new Set(wordsOf(text).map(stem));

/**
 * Word similarity for the text fallback: the Dice coefficient of the content-word stems, taken on
 * the titles and on the whole texts, whichever is higher. Dice rather than Jaccard because a
 * rewording adds new words on both sides, which Jaccard counts twice against the match; stems
 * because rewording changes endings; titles on their own because they name the defect in a few
 * words, where a long message would drown them. Identifiers in backticks count as words.
 */
export function textSimilarity(a: { title: string; text: string }, b: { title: string; text: string }): number {
  return Math.max(dice(stems(a.title), stems(b.title)), dice(stems(a.text), stems(b.text)));
}

function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return (2 * both) / (a.size + b.size);
}

/** A memory's title: the first line of its summary (the finding's title when Margin wrote it). */
export const titleOf = (summary: string) => summary.split('\n', 1)[0] ?? summary;

export interface MemoryQuery {
  path: string | null;
  title: string;
  message: string;
  fingerprint: string | null;
  vector?: number[] | undefined;
}

export interface MemoryMatch {
  decision: PastDecision;
  /** Cosine by meaning, or the text similarity when either side has no vector. */
  similarity: number;
  by: 'fingerprint' | 'meaning' | 'text';
}

/**
 * The closest past decision that holds a finding back: on the same file, with the same fingerprint,
 * or close by meaning (cosine ≥ 0.80 when both have vectors), or else by words (≥ 0.5). A rejection
 * outweighs an acceptance at equal closeness (people saying "wrong" is the stronger signal).
 */
export function closestHoldingMemory(query: MemoryQuery, decisions: readonly PastDecision[]): MemoryMatch | undefined {
  const path = query.path?.toLowerCase();
  let best: MemoryMatch | undefined;
  for (const d of decisions) {
    if (!holdsBack(d) || d.source === 'adminDismissed') continue;
    if (!path || d.filePath?.toLowerCase() !== path) continue;
    const match = compare(query, d);
    if (!match) continue;
    if (
      !best ||
      match.similarity > best.similarity ||
      (match.similarity === best.similarity && d.intent === 'rejected' && best.decision.intent !== 'rejected')
    ) {
      best = match;
    }
  }
  return best;
}

function compare(query: MemoryQuery, d: PastDecision): MemoryMatch | undefined {
  if (query.fingerprint && d.findingFingerprint === query.fingerprint) {
    return { decision: d, similarity: 1, by: 'fingerprint' };
  }
  if (query.vector && d.embedding && d.embedding.length === query.vector.length) {
    const similarity = cosine(query.vector, d.embedding);
    return similarity >= MEANING_THRESHOLD ? { decision: d, similarity, by: 'meaning' } : undefined;
  }
  const similarity = textSimilarity(
    { title: query.title, text: `${query.title}\n${query.message}` },
    { title: titleOf(d.summary), text: d.summary },
  );
  return similarity >= TEXT_THRESHOLD ? { decision: d, similarity, by: 'text' } : undefined;
}

/**
 * What the model is shown for a file: up to three decisions about it, rejections first, then
 * acceptances, then fixes, newest first within each (the list arrives newest first).
 */
export function decisionsForFile(path: string, decisions: readonly PastDecision[]): PastDecision[] {
  const rank = { rejected: 0, acceptedByHuman: 1, claimsFix: 2 } as const;
  const lower = path.toLowerCase();
  return decisions
    .filter((d) => d.source !== 'adminDismissed' && d.filePath?.toLowerCase() === lower)
    .map((d, i) => ({ d, i }))
    .sort((a, b) => rank[a.d.intent] - rank[b.d.intent] || a.i - b.i)
    .slice(0, PER_FILE)
    .map(({ d }) => d);
}
