import { createHash } from 'node:crypto';

/** One sample's view of a chunk: the parts (by their position in the chunk) and each part's hunks, in order. */
export type SampleOrder = Array<{ part: number; hunks: number[] }>;

/**
 * A different order of the chunk's files and hunks for each sample, so position in the prompt does
 * not decide what the model notices (reference §6.5). Deterministic: seeded from the job, the chunk
 * (its paths and hunks) and the sample, so a rerun of the job shows each sample the same order.
 * Orders differ between samples whenever the chunk has enough hunks to allow it.
 */
export function sampleOrders(
  seed: string,
  parts: ReadonlyArray<{ path: string; hunks: readonly number[] }>,
  samples: number,
): SampleOrder[] {
  const chunkKey = parts.map((p) => `${p.path}:${p.hunks.join(',')}`).join('|');
  let possible = factorial(parts.length);
  for (const p of parts) possible *= factorial(p.hunks.length);
  const orders: SampleOrder[] = [];
  const seen = new Set<string>();
  for (let sample = 0; sample < samples; sample++) {
    let order: SampleOrder = [];
    // A few redraws find an unused order quickly whenever there are more orders than samples.
    for (let attempt = 0; attempt < 16; attempt++) {
      const random = seededRandom(`${seed}\u0000${chunkKey}\u0000${sample}\u0000${attempt}`);
      order = shuffle(
        parts.map((p, part) => ({ part, hunks: shuffle([...p.hunks], random) })),
        random,
      );
      if (!seen.has(keyOf(order)) || seen.size >= possible) break;
    }
    seen.add(keyOf(order));
    orders.push(order);
  }
  return orders;
}

const keyOf = (order: SampleOrder) => order.map((o) => `${o.part}:${o.hunks.join(',')}`).join('|');

function factorial(n: number): number {
  let f = 1;
  for (let i = 2; i <= n && f < 1e6; i++) f *= i;
  return f;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

/** mulberry32 seeded with the first 4 bytes of the seed's sha256: small, fast, reproducible. */
function seededRandom(seed: string): () => number {
  let state = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
