import { type EngineFinding, SEVERITY_RANK } from '../engine-finding.js';
import { type ComparableFinding, sameFinding } from '../identity/finding-keys.js';

/** A finding kept by consensus: how many of the samples that answered produced it. */
export interface ConsensusNote {
  agreed: number;
  samples: number;
}

export interface Consensus {
  /** One finding per group that reached agreement: its best, confidence raised to the group's highest. */
  survivors: EngineFinding[];
  /** One finding per group that did not (its best), with how many samples produced it and the others' ids. */
  disagreed: Array<{ finding: EngineFinding; agreed: number; alsoProposedAs: string[] }>;
  groups: number;
}

/**
 * Groups the findings the samples produced by identity (reference §8.2: `sameFinding` on the keys,
 * in the same file) and keeps a group when at least `minAgreement` different samples produced it —
 * one sample saying the same thing twice counts once. Findings must be anchored and keyed; the
 * order of `samples` decides ties, so the outcome is deterministic.
 */
export function reachConsensus(
  samples: ReadonlyArray<readonly EngineFinding[]>,
  answered: number,
  minAgreement: number,
): Consensus {
  const groups: Array<{ members: EngineFinding[]; comparable: ComparableFinding[]; samples: Set<number> }> = [];
  for (const [sample, findings] of samples.entries()) {
    for (const finding of findings) {
      const comparable = comparableOf(finding);
      const group = groups.find((g) => g.comparable.some((c) => sameFinding(c, comparable)));
      if (group) {
        group.members.push(finding);
        group.comparable.push(comparable);
        group.samples.add(sample);
      } else {
        groups.push({ members: [finding], comparable: [comparable], samples: new Set([sample]) });
      }
    }
  }
  const consensus: Consensus = { survivors: [], disagreed: [], groups: groups.length };
  for (const group of groups) {
    const best = group.members.reduce((a, b) => (rank(b) > rank(a) ? b : a));
    const others = group.members.filter((f) => f !== best).map((f) => f.id);
    if (group.samples.size >= minAgreement) {
      best.confidence = Math.max(...group.members.map((f) => f.confidence));
      best.consensus = { agreed: group.samples.size, samples: answered };
      consensus.survivors.push(best);
    } else {
      consensus.disagreed.push({ finding: best, agreed: group.samples.size, alsoProposedAs: others });
    }
  }
  return consensus;
}

const rank = (f: EngineFinding) => SEVERITY_RANK[f.severity] * 1000 + f.confidence;

function comparableOf(f: EngineFinding): ComparableFinding {
  return {
    path: f.anchor?.path ?? f.path ?? '',
    line: f.anchor && f.anchor.side !== 'old' ? f.anchor.startLine : null,
    category: f.category,
    keys: f.keys ?? { locKey: f.id, fingerprint: f.id, identifiers: [], words: [] },
  };
}
