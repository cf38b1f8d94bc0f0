import type { AiPurpose } from '../../ai-model/index.js';

export type Tier = 'low' | 'medium' | 'high';

const SENSITIVE = /auth|crypto|sql|payment|secret|token|permission|password|session|\.github\/workflows/i;

/** A path touching authentication, cryptography, SQL, payments, secrets or CI workflows. */
export function isSensitivePath(path: string): boolean {
  return SENSITIVE.test(path);
}

/**
 * How much review a file deserves: by its changed lines (≤ 30 low, ≤ 150 medium, more high), and
 * high whatever its size when its path touches authentication, cryptography, SQL, payments,
 * secrets or CI workflows.
 */
export function tierOf(path: string, changedLines: number): Tier {
  if (isSensitivePath(path)) return 'high';
  if (changedLines <= 30) return 'low';
  if (changedLines <= 150) return 'medium';
  return 'high';
}

export const TIER_RANK: Record<Tier, number> = { low: 0, medium: 1, high: 2 };

export function maxTier(a: Tier, b: Tier): Tier {
  return TIER_RANK[a] >= TIER_RANK[b] ? a : b;
}

/** File ids, lowest risk first: lower tier, then fewer changed lines, then by path. */
export function lowestRiskFirst(
  files: ReadonlyArray<{ id: number; tier: Tier; changedLines: number; path: string }>,
): number[] {
  return [...files]
    .sort(
      (a, b) =>
        TIER_RANK[a.tier] - TIER_RANK[b.tier] || a.changedLines - b.changedLines || a.path.localeCompare(b.path),
    )
    .map((f) => f.id);
}

/** Each tier asks its own purpose; unmapped ones fall back to `reviewDefault`. */
export const TIER_PURPOSE: Record<Tier, Exclude<AiPurpose, 'embeddingDefault'>> = {
  low: 'reviewLowEffort',
  medium: 'reviewMediumEffort',
  high: 'reviewHighEffort',
};
