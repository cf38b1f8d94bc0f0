import type { Anchor } from './anchor/anchor.js';
import type { FindingKeys } from './identity/finding-keys.js';
import type { FindingCategory, ProposedFinding, Severity } from './output/review-answer.js';
import type { KnowledgeCitation } from './review-engine-v1.js';
import type { Verdict } from './verify/verify-answer.js';

/** Wire values of `Finding.publication` (decisions.md, Reviewing). */
export type Publication = 'published' | 'summaryOnly' | 'suppressed' | 'dropped';

/**
 * A finding as it moves through verify, anchor, dedupe, gate and publish. Stages only ever move it
 * down (published → summaryOnly → suppressed/dropped) and each move records its reason, so "why
 * was this not posted?" has one answer per finding.
 */
export interface EngineFinding {
  id: string;
  /** Where it came from: a reviewing model, or a deterministic scan that needs no model. */
  source: 'model' | 'secretScan' | 'bidiScan';
  /** The chunk whose review proposed it (-1 for deterministic scans). */
  chunk: number;
  proposed: ProposedFinding;
  category: FindingCategory;
  severity: Severity;
  confidence: number;
  title: string;
  message: string;
  suggestion: string | null;
  /** Set once anchored on a line; a PR-level finding keeps only `path`. */
  anchor?: Anchor | undefined;
  path: string | null;
  /** The enclosing function git named in the hunk header, for identity. */
  enclosingSymbol: string;
  keys?: FindingKeys | undefined;
  verdict?: Verdict | undefined;
  publication: Publication;
  reason?: string | undefined;
  providerThreadId?: string | undefined;
  /** Held back by thread memory (`reason: memory`): the past decision it matched. */
  memoryId?: string | undefined;
  /** For a finding standing for the same root cause in several files; `line` is on the new file (null on removed code). */
  places?: Array<{ path: string; line: number | null }> | undefined;
  /** Thorough mode: how many of the samples that answered produced this finding. */
  consensus?: { agreed: number; samples: number } | undefined;
  /** The knowledge results (`search_knowledge`, `get_symbol`) the finding relies on. */
  citations?: KnowledgeCitation[] | undefined;
}

export const SEVERITY_RANK: Record<Severity, number> = { error: 3, warning: 2, suggestion: 1, info: 0 };

/** Moves a finding down to `to` for `reason`; never back up. Returns whether it moved. */
export function demote(finding: EngineFinding, to: Exclude<Publication, 'published'>, reason: string): boolean {
  const order: Record<Publication, number> = { published: 0, summaryOnly: 1, suppressed: 2, dropped: 3 };
  if (order[to] <= order[finding.publication]) return false;
  finding.publication = to;
  finding.reason = reason;
  return true;
}

/** Still on its way to a thread or the summary. */
export const isCandidate = (f: EngineFinding) => f.publication === 'published' || f.publication === 'summaryOnly';
