import type { AiPurpose } from '../../ai/index.js';

export type Tier = 'low' | 'medium' | 'high';

const SENSITIVE = /auth|crypto|sql|payment|secret|token|permission|password|session|\.github\/workflows/i;

/**
 * How much review a file deserves: by its changed lines (≤ 30 low, ≤ 150 medium, more high), and
 * high whatever its size when its path touches authentication, cryptography, SQL, payments,
 * secrets or CI workflows.
 */
export function tierOf(path: string, changedLines: number): Tier {
  if (SENSITIVE.test(path)) return 'high';
  if (changedLines <= 30) return 'low';
  if (changedLines <= 150) return 'medium';
  return 'high';
}

export function maxTier(a: Tier, b: Tier): Tier {
  const rank = { low: 0, medium: 1, high: 2 } as const;
  return rank[a] >= rank[b] ? a : b;
}

/** Each tier asks its own purpose; unmapped ones fall back to `reviewDefault`. */
export const TIER_PURPOSE: Record<Tier, Exclude<AiPurpose, 'embeddingDefault'>> = {
  low: 'reviewLowEffort',
  medium: 'reviewMediumEffort',
  high: 'reviewHighEffort',
};
