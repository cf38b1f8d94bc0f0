import type { EngineFinding } from '../engine-finding.js';
import { findingKeys } from './finding-keys.js';

/**
 * Sets the finding's identity keys from where it is anchored and what it was proposed as (the
 * proposed message, before anchoring put a note in front of it).
 */
export function keyFinding(f: EngineFinding): void {
  f.keys = findingKeys({
    path: f.anchor?.path ?? f.path ?? '',
    anchorText: f.anchor?.anchorText ?? '',
    enclosingSymbol: f.enclosingSymbol,
    category: f.category,
    ruleId: f.proposed.ruleId,
    title: f.title,
    message: f.proposed.message,
  });
}
