import { describe, expect, it } from 'vitest';
import type { BranchEmbeddings } from './index-records.js';
import { EXACT_SCAN_LIMIT, nearestChunks } from './nearest-chunks.js';

/** Deterministic pseudo-random numbers, so a failure reproduces. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function branch(rows: number, dimensions: number, rnd: () => number): BranchEmbeddings {
  const vectors = new Float32Array(rows * dimensions);
  for (let i = 0; i < vectors.length; i++) vectors[i] = rnd() - 0.5;
  return { dimensions, chunkIds: Int32Array.from({ length: rows }, (_, i) => 1000 + i), vectors };
}

function exact(embeddings: BranchEmbeddings, query: number[], limit: number) {
  const { dimensions, chunkIds, vectors } = embeddings;
  const qNorm = Math.hypot(...query);
  return Array.from(chunkIds, (chunkId, row) => {
    const v = vectors.subarray(row * dimensions, (row + 1) * dimensions);
    const dot = v.reduce((sum, x, d) => sum + x * (query[d] as number), 0);
    return { chunkId, score: dot / (Math.hypot(...v) * qNorm) };
  })
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}

describe('nearestChunks', () => {
  it('answers a small branch exactly, best first, with cosine scores', () => {
    const rnd = random(3);
    const embeddings = branch(500, 16, rnd);
    const query = Array.from({ length: 16 }, () => rnd() - 0.5);
    const found = nearestChunks(embeddings, query, 5);
    const expected = exact(embeddings, query, 5);
    expect(found.map((f) => f.chunkId)).toEqual(expected.map((e) => e.chunkId));
    for (const [i, f] of found.entries()) expect(f.score).toBeCloseTo((expected[i] as { score: number }).score, 5);
  });

  it('finds a row that points the way of the query above the exact-scan size, with its exact score', () => {
    const rnd = random(11);
    const dimensions = 64;
    const embeddings = branch(EXACT_SCAN_LIMIT + 5000, dimensions, rnd);
    const query = Array.from({ length: dimensions }, () => rnd() - 0.5);
    // Row 17,345 becomes the query, slightly disturbed, at ten times its length: cosine ignores length.
    const planted = 17_345;
    for (let d = 0; d < dimensions; d++) {
      embeddings.vectors[planted * dimensions + d] = 10 * ((query[d] as number) + (rnd() - 0.5) * 0.05);
    }
    const found = nearestChunks(embeddings, query, 8);
    expect(found[0]?.chunkId).toBe(1000 + planted);
    expect(found[0]?.score).toBeCloseTo((exact(embeddings, query, 1)[0] as { score: number }).score, 5);
    // Most of the exact top eight come back; on random vectors (the codes' hardest case) not always all.
    const best = new Set(exact(embeddings, query, 8).map((e) => e.chunkId));
    expect(found.filter((f) => best.has(f.chunkId)).length).toBeGreaterThanOrEqual(6);
    expect(found.map((f) => f.score)).toEqual([...found.map((f) => f.score)].sort((a, b) => b - a));
  });

  it('answers nothing for a query of other dimensions, an empty branch or no room', () => {
    const embeddings = branch(10, 4, random(5));
    expect(nearestChunks(embeddings, [1, 2, 3], 3)).toEqual([]);
    expect(
      nearestChunks({ dimensions: 4, chunkIds: new Int32Array(0), vectors: new Float32Array(0) }, [1, 2, 3, 4], 3),
    ).toEqual([]);
    expect(nearestChunks(embeddings, [1, 2, 3, 4], 0)).toEqual([]);
  });
});
