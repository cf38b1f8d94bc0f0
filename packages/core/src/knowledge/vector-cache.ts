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

/** The `limit` best chunks by cosine similarity to `query` (unit-normalised here), best first. */
export function nearestChunks(
  embeddings: BranchEmbeddings,
  query: readonly number[],
  limit: number,
): Array<{ chunkId: number; score: number }> {
  const { dimensions, chunkIds, vectors } = embeddings;
  if (dimensions === 0 || query.length !== dimensions || chunkIds.length === 0) return [];
  let qNorm = 0;
  for (const v of query) qNorm += v * v;
  qNorm = Math.sqrt(qNorm) || 1;
  const best: Array<{ chunkId: number; score: number }> = [];
  for (let row = 0; row < chunkIds.length; row++) {
    let dot = 0;
    let norm = 0;
    const base = row * dimensions;
    for (let d = 0; d < dimensions; d++) {
      const x = vectors[base + d] as number;
      dot += x * (query[d] as number);
      norm += x * x;
    }
    const score = dot / ((Math.sqrt(norm) || 1) * qNorm);
    if (best.length < limit || score > (best.at(-1)?.score ?? -Infinity)) {
      best.push({ chunkId: chunkIds[row] as number, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > limit) best.pop();
    }
  }
  return best;
}
