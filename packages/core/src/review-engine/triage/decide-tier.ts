import type { TriageItem } from '../output/triage-answer.js';
import { maxTier, type Tier } from '../plan/tiers.js';

export interface TierFacts {
  /** The tier by changed lines and path (`tierOf`). */
  heuristic: Tier;
  /** The path touches auth, crypto, SQL, payments, secrets, tokens, permissions or CI workflows. */
  sensitive: boolean;
  /** The injection scanner found text in the file's added lines that reads like instructions. */
  injectionSuspected: boolean;
}

/** Why a triage's wish to skip or to lower a tier was not followed. */
export type TriageRefusal = 'sensitivePath' | 'injectionSuspected' | 'notLowTier' | 'triageTierNotLow' | 'escalated';

export interface TriageDecision {
  tier: Tier;
  skipped: boolean;
  /** Set when the triage asked to skip (or to lower a tier) and the guards said no. */
  refused?: TriageRefusal | undefined;
}

/**
 * The deterministic guards around a triage answer, so triage can make review stronger but never
 * weaker on risky code:
 * - `securityEscalate` makes the file high;
 * - otherwise the higher of the heuristic and the triage tier, except that a triage `low` may lower
 *   a heuristic `medium` to `low` when the path is not sensitive;
 * - a skip counts only for a file the heuristic puts low, whose path is not sensitive, and that the
 *   triage itself calls low;
 * - a file whose text looked like an attempt to instruct a model is never lowered or skipped, since
 *   the triage may have been steered by it.
 */
export function decideTier(facts: TierFacts, answer: TriageItem): TriageDecision {
  if (answer.securityEscalate) {
    return { tier: 'high', skipped: false, ...(answer.skip ? { refused: 'escalated' as const } : {}) };
  }
  const weakens = answer.skip || (answer.tier === 'low' && facts.heuristic === 'medium');
  const refusal: TriageRefusal | undefined = facts.sensitive
    ? 'sensitivePath'
    : facts.injectionSuspected
      ? 'injectionSuspected'
      : undefined;
  const mayLower = refusal === undefined && answer.tier === 'low' && facts.heuristic === 'medium';
  const tier = mayLower ? 'low' : maxTier(facts.heuristic, answer.tier);
  if (!answer.skip) return { tier, skipped: false, ...(weakens && refusal ? { refused: refusal } : {}) };
  const skipRefusal: TriageRefusal | undefined =
    refusal ?? (facts.heuristic !== 'low' ? 'notLowTier' : answer.tier !== 'low' ? 'triageTierNotLow' : undefined);
  return skipRefusal ? { tier, skipped: false, refused: skipRefusal } : { tier: 'low', skipped: true };
}
