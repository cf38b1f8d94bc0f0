import { maxTier, type Tier } from './tiers.js';

/** A reviewable file as packing sees it: tokens of its header and of each shown hunk. */
export interface PackableFile {
  /** The caller's handle for the file. */
  id: number;
  path: string;
  headerTokens: number;
  hunks: Array<{ index: number; tokens: number }>;
  tier: Tier;
}

export interface ChunkPart {
  fileId: number;
  /** Hunk indexes shown; all of the file's shown hunks when the file is whole. */
  hunks: number[];
  whole: boolean;
}

export interface PackedChunk {
  parts: ChunkPart[];
  /** Diff tokens of the chunk (headers and hunks). */
  tokens: number;
  tier: Tier;
}

export interface PackLimits {
  /** Diff tokens a chunk aims at: small enough that attention does not dilute on long-context models. */
  targetTokens: number;
  /** Diff tokens no chunk may exceed: the model's window less prompt, answer reserve and margin. */
  maxTokens: number;
}

export interface PackResult {
  chunks: PackedChunk[];
  /** Hunks no chunk could hold (a single hunk over `maxTokens`), by file: the file is `partial`. */
  oversized: Map<number, number[]>;
}

/**
 * Packs files into chunks, in the order given (keep it deterministic so prompt caches hit): files
 * that fit share a chunk up to the target; a bigger file is split at hunk boundaries, each piece
 * repeating the previous piece's last hunk when that is small, so a finding spanning the cut is
 * still seen whole. Nothing is clipped silently: a hunk over the limit is reported in `oversized`.
 */
export function packChunks(files: readonly PackableFile[], limits: PackLimits): PackResult {
  const target = Math.min(limits.targetTokens, limits.maxTokens);
  const chunks: PackedChunk[] = [];
  const oversized = new Map<number, number[]>();
  let open: PackedChunk | undefined;

  const close = () => {
    if (open && open.parts.length > 0) chunks.push(open);
    open = undefined;
  };

  for (const file of files) {
    const fitting = file.hunks.filter((h) => file.headerTokens + h.tokens <= limits.maxTokens);
    if (fitting.length < file.hunks.length) {
      oversized.set(
        file.id,
        file.hunks.filter((h) => !fitting.includes(h)).map((h) => h.index),
      );
    }
    if (fitting.length === 0) continue;
    const total = file.headerTokens + fitting.reduce((n, h) => n + h.tokens, 0);
    const whole = fitting.length === file.hunks.length;

    if (total <= target) {
      if (open && open.tokens + total > target) close();
      open ??= { parts: [], tokens: 0, tier: file.tier };
      open.parts.push({ fileId: file.id, hunks: fitting.map((h) => h.index), whole });
      open.tokens += total;
      open.tier = maxTier(open.tier, file.tier);
      continue;
    }

    // Split at hunk boundaries; big files get chunks of their own.
    close();
    let piece: { hunks: number[]; tokens: number } = { hunks: [], tokens: file.headerTokens };
    let previous: { index: number; tokens: number } | undefined;
    for (const hunk of fitting) {
      if (piece.hunks.length > 0 && piece.tokens + hunk.tokens > target) {
        chunks.push({
          parts: [{ fileId: file.id, hunks: piece.hunks, whole: false }],
          tokens: piece.tokens,
          tier: file.tier,
        });
        piece = { hunks: [], tokens: file.headerTokens };
        if (previous && previous.tokens <= target / 3 && file.headerTokens + previous.tokens + hunk.tokens <= target) {
          piece.hunks.push(previous.index);
          piece.tokens += previous.tokens;
        }
      }
      piece.hunks.push(hunk.index);
      piece.tokens += hunk.tokens;
      previous = hunk;
    }
    if (piece.hunks.length > 0) {
      chunks.push({
        parts: [{ fileId: file.id, hunks: piece.hunks, whole: false }],
        tokens: piece.tokens,
        tier: file.tier,
      });
    }
  }
  close();
  return { chunks, oversized };
}

/** Tokens a text takes: the model's own count where it has one, otherwise characters ÷ 3.5. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 3.5);
}

/**
 * A chunk in two, for a model whose window it overflowed after all: its files in two halves, or a
 * single file's hunks in two; `undefined` when it is one hunk, which cannot be split.
 */
export function splitChunk(chunk: PackedChunk): PackedChunk[] | undefined {
  if (chunk.parts.length > 1) {
    const half = Math.ceil(chunk.parts.length / 2);
    return [chunk.parts.slice(0, half), chunk.parts.slice(half)].map((parts) => ({
      parts,
      tokens: Math.ceil(chunk.tokens / 2),
      tier: chunk.tier,
    }));
  }
  const part = chunk.parts[0];
  if (!part || part.hunks.length < 2) return undefined;
  const half = Math.ceil(part.hunks.length / 2);
  return [part.hunks.slice(0, half), part.hunks.slice(half)].map((hunks) => ({
    parts: [{ fileId: part.fileId, hunks, whole: false }],
    tokens: Math.ceil(chunk.tokens / 2),
    tier: chunk.tier,
  }));
}
