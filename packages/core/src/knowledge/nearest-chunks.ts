import type { BranchEmbeddings } from './index-records.js';

/** Up to this many vectors an exact scan takes a few milliseconds, and nothing is approximated. */
export const EXACT_SCAN_LIMIT = 20_000;
/**
 * Above it, the share of rows rescored exactly after the binary pass (and at least 64 per result
 * asked for). Measured by bench/scenarios/knowledge-search.mjs, which reports recall against exact.
 */
const RESCORED_SHARE = 0.05;
const RESCORED_PER_RESULT = 64;

interface Prepared {
  /** Each row's length, so rescoring is one dot product per row. */
  norms: Float32Array;
  /** One bit per dimension per row (above the dimension's mean or not), `words` 32-bit words a row. */
  codes: Uint32Array | undefined;
  center: Float32Array | undefined;
  words: number;
}

/** Worked out once per loaded branch (the vector cache keeps the same object while it is current). */
const preparedOf = new WeakMap<BranchEmbeddings, Prepared>();

/**
 * The `limit` best chunks by cosine similarity to `query`, best first.
 *
 * A branch of up to EXACT_SCAN_LIMIT vectors is scanned exactly. A larger one is searched in two
 * passes: every row's sign code (one bit per dimension, against the dimension's mean) is compared with
 * the query's by Hamming distance, which tracks the angle between them; the nearest few percent are then
 * rescored exactly. Codes are 1/32 of the vectors' size, so the first pass reads little memory, and the
 * answer keeps exact scores. No vector extension is assumed of the database.
 */
export function nearestChunks(
  embeddings: BranchEmbeddings,
  query: readonly number[],
  limit: number,
): Array<{ chunkId: number; score: number }> {
  const { dimensions, chunkIds } = embeddings;
  const rows = chunkIds.length;
  if (dimensions === 0 || query.length !== dimensions || rows === 0 || limit <= 0) return [];
  const q = Float32Array.from(query);
  const prepared = prepare(embeddings);
  const best = new TopRows(limit);
  if (!prepared.codes || !prepared.center) {
    for (let row = 0; row < rows; row++) best.offer(row, cosine(embeddings, prepared, q, row));
  } else {
    const wanted = Math.min(rows, Math.max(limit * RESCORED_PER_RESULT, Math.ceil(rows * RESCORED_SHARE)));
    for (const row of nearestByCode(prepared, q, rows, wanted)) best.offer(row, cosine(embeddings, prepared, q, row));
  }
  const qNorm = Math.sqrt(q.reduce((sum, v) => sum + v * v, 0)) || 1;
  return best.sorted().map((b) => ({ chunkId: chunkIds[b.row] as number, score: b.score / qNorm }));
}

function prepare(embeddings: BranchEmbeddings): Prepared {
  const known = preparedOf.get(embeddings);
  if (known) return known;
  const { dimensions, chunkIds, vectors } = embeddings;
  const rows = chunkIds.length;
  const norms = new Float32Array(rows);
  for (let row = 0; row < rows; row++) {
    let sum = 0;
    for (let d = row * dimensions, end = d + dimensions; d < end; d++) sum += (vectors[d] as number) ** 2;
    norms[row] = Math.sqrt(sum) || 1;
  }
  const prepared: Prepared = { norms, codes: undefined, center: undefined, words: Math.ceil(dimensions / 32) };
  if (rows > EXACT_SCAN_LIMIT) {
    // Centring first: embedding models give some dimensions a constant lean that would set the same bit
    // in every row and tell nothing apart.
    const center = new Float32Array(dimensions);
    for (let i = 0; i < vectors.length; i++) {
      const d = i % dimensions;
      center[d] = (center[d] as number) + (vectors[i] as number) / rows;
    }
    const codes = new Uint32Array(rows * prepared.words);
    for (let row = 0; row < rows; row++) encode(vectors, row * dimensions, center, codes, row * prepared.words);
    prepared.codes = codes;
    prepared.center = center;
  }
  preparedOf.set(embeddings, prepared);
  return prepared;
}

function encode(values: Float32Array, from: number, center: Float32Array, codes: Uint32Array, at: number): void {
  for (let d = 0; d < center.length; d++) {
    const word = at + (d >>> 5);
    if ((values[from + d] as number) > (center[d] as number)) codes[word] = (codes[word] as number) | (1 << (d & 31));
  }
}

/** The `wanted` rows whose codes are nearest the query's (ties at the cut-off in row order). */
function nearestByCode(prepared: Prepared, q: Float32Array, rows: number, wanted: number): Uint32Array {
  const { words } = prepared;
  const codes = prepared.codes as Uint32Array;
  const center = prepared.center as Float32Array;
  const qCode = new Uint32Array(words);
  encode(q, 0, center, qCode, 0);
  const distances = new Uint16Array(rows);
  const histogram = new Uint32Array(words * 32 + 1);
  for (let row = 0, at = 0; row < rows; row++, at += words) {
    let distance = 0;
    for (let w = 0; w < words; w++) distance += bitCount((codes[at + w] as number) ^ (qCode[w] as number));
    distances[row] = distance;
    histogram[distance] = (histogram[distance] as number) + 1;
  }
  // The distance at which `wanted` rows are reached; rows below it all go, rows at it while room is left.
  let cutoff = 0;
  let below = 0;
  while (below + (histogram[cutoff] as number) < wanted) below += histogram[cutoff++] as number;
  let atCutoff = wanted - below;
  const chosen = new Uint32Array(wanted);
  let n = 0;
  for (let row = 0; row < rows; row++) {
    const distance = distances[row] as number;
    if (distance < cutoff || (distance === cutoff && atCutoff-- > 0)) chosen[n++] = row;
  }
  return chosen;
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Cosine times the query's length (divided out once at the end). */
function cosine(embeddings: BranchEmbeddings, prepared: Prepared, q: Float32Array, row: number): number {
  const { dimensions, vectors } = embeddings;
  // Four running sums: independent additions the CPU overlaps (about twice as fast as one sum).
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const base = row * dimensions;
  let d = 0;
  for (; d + 3 < dimensions; d += 4) {
    s0 += (vectors[base + d] as number) * (q[d] as number);
    s1 += (vectors[base + d + 1] as number) * (q[d + 1] as number);
    s2 += (vectors[base + d + 2] as number) * (q[d + 2] as number);
    s3 += (vectors[base + d + 3] as number) * (q[d + 3] as number);
  }
  for (; d < dimensions; d++) s0 += (vectors[base + d] as number) * (q[d] as number);
  return (s0 + s1 + s2 + s3) / (prepared.norms[row] as number);
}

/** A small sorted list of the best so far; most rows fall below its last entry and cost one comparison. */
class TopRows {
  private readonly best: Array<{ row: number; score: number }> = [];
  private floor = Number.NEGATIVE_INFINITY;
  constructor(private readonly limit: number) {}

  offer(row: number, score: number): void {
    const best = this.best;
    if (best.length === this.limit && score <= this.floor) return;
    let at = best.length;
    while (at > 0 && (best[at - 1] as { score: number }).score < score) at--;
    best.splice(at, 0, { row, score });
    if (best.length > this.limit) best.pop();
    this.floor = (best.at(-1) as { score: number }).score;
  }

  sorted(): ReadonlyArray<{ row: number; score: number }> {
    return this.best;
  }
}
