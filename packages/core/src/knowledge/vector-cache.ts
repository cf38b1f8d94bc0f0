import type { BranchEmbeddings, IndexScope, KnowledgeIndexRepository } from './index-records.js';

/** Branches whose vectors stay loaded; the least recently searched goes first. */
const MAX_BRANCHES = 16;

/**
 * Semantic search is cosine over every vector of a branch, in process (no vector extension is
 * assumed of the database). Loading them costs a read of the whole branch, so they are kept per
 * (source, branch, version) and reloaded only when a refresh wrote new ones (`version` changes).
 */
export class VectorCache {
  private readonly entries = new Map<string, { version: string; vectors: Promise<BranchEmbeddings> }>();

  async get(index: KnowledgeIndexRepository, scope: IndexScope, version: string): Promise<BranchEmbeddings> {
    const key = `${scope.sourceId}\0${scope.branchName}`;
    const found = this.entries.get(key);
    this.entries.delete(key);
    if (found && found.version === version) {
      this.entries.set(key, found);
      return found.vectors;
    }
    const vectors = index.branchEmbeddings(scope);
    this.entries.set(key, { version, vectors });
    vectors.catch(() => this.entries.delete(key));
    while (this.entries.size > MAX_BRANCHES) this.entries.delete(this.entries.keys().next().value as string);
    return vectors;
  }
}

/** Each row's length, computed once per loaded branch rather than on every query. */
const rowNorms = new WeakMap<BranchEmbeddings, Float32Array>();

function normsOf(embeddings: BranchEmbeddings): Float32Array {
  let norms = rowNorms.get(embeddings);
  if (!norms) {
    const { dimensions, chunkIds, vectors } = embeddings;
    norms = new Float32Array(chunkIds.length);
    for (let row = 0; row < chunkIds.length; row++) {
      let sum = 0;
      for (let d = row * dimensions, end = d + dimensions; d < end; d++) sum += (vectors[d] as number) ** 2;
      norms[row] = Math.sqrt(sum) || 1;
    }
    rowNorms.set(embeddings, norms);
  }
  return norms;
}

/** The `limit` best chunks by cosine similarity to `query`, best first. */
export function nearestChunks(
  embeddings: BranchEmbeddings,
  query: readonly number[],
  limit: number,
): Array<{ chunkId: number; score: number }> {
  const { dimensions, chunkIds, vectors } = embeddings;
  if (dimensions === 0 || query.length !== dimensions || chunkIds.length === 0 || limit <= 0) return [];
  const q = Float32Array.from(query);
  let qNorm = 0;
  for (const v of q) qNorm += v * v;
  qNorm = Math.sqrt(qNorm) || 1;
  const norms = normsOf(embeddings);
  // A small sorted list of the best so far; most rows fall below its last entry and cost one comparison.
  const best: Array<{ row: number; score: number }> = [];
  let floor = Number.NEGATIVE_INFINITY;
  for (let row = 0; row < chunkIds.length; row++) {
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
    const score = (s0 + s1 + s2 + s3) / ((norms[row] as number) * qNorm);
    if (best.length === limit && score <= floor) continue;
    let at = best.length;
    while (at > 0 && (best[at - 1] as { score: number }).score < score) at--;
    best.splice(at, 0, { row, score });
    if (best.length > limit) best.pop();
    floor = (best.at(-1) as { score: number }).score;
  }
  return best.map((b) => ({ chunkId: chunkIds[b.row] as number, score: b.score }));
}
