import { z } from 'zod';
import type { StructuredSpec } from '../../ai-model/index.js';
import type { Tier } from '../plan/tiers.js';
import type { ReadAnswer } from './review-answer.js';

/**
 * What a triage model answers for each file of its batch (reference §6.4), as sent to vendors.
 * Every property is required (strict structured-output modes reject optional ones); `why` comes
 * before the verdicts it explains.
 */
export const TriageAnswerWire = z.object({
  files: z
    .array(
      z.object({
        path: z.string().describe('The file, exactly as given after "Path:".'),
        why: z.string().describe('At most 200 characters: what the change does and why that needs this much review.'),
        tier: z.enum(['low', 'medium', 'high']).describe('How much review the change needs.'),
        securityEscalate: z
          .boolean()
          .describe('True when the change touches authentication, authorisation, secrets, input parsing or injection.'),
        skip: z
          .boolean()
          .describe('True only when the change cannot alter behaviour: comments, docs, formatting, renames of locals.'),
      }),
    )
    .describe('One entry per file given.'),
});

/** One file's triage as read from a model. */
export interface TriageItem {
  path: string;
  tier: Tier;
  securityEscalate: boolean;
  skip: boolean;
  why: string;
}

export type TriageAnswer = ReadAnswer<TriageItem[]>;

const TIER_SYNONYMS: Record<string, Tier> = {
  low: 'low',
  minor: 'low',
  trivial: 'low',
  small: 'low',
  medium: 'medium',
  moderate: 'medium',
  normal: 'medium',
  high: 'high',
  major: 'high',
  critical: 'high',
  severe: 'high',
  risky: 'high',
};

/**
 * Reads a triage answer leniently, like the review answer: a bare array is the list, field-name
 * variants and tier synonyms are accepted, booleans written as strings are read, and each invalid
 * item is dropped alone with its reason. A missing flag reads as `false`: the guards make `false`
 * the safe default (no skip), and an escalation the model did not state is not invented.
 */
export function readTriageAnswer(value: unknown): TriageAnswer | undefined {
  const root = Array.isArray(value) ? { files: value } : asRecord(value);
  if (!root) return undefined;
  const list = root.files ?? root.items ?? root.triage ?? root.results;
  if (!Array.isArray(list)) return undefined;
  const items: TriageItem[] = [];
  const dropped: Array<{ index: number; reason: string }> = [];
  const counter = { n: 0 };
  list.forEach((raw, index) => {
    const item = readItem(raw, counter);
    if (typeof item === 'string') dropped.push({ index, reason: item });
    else items.push(item);
  });
  return { value: items, dropped, coercions: counter.n };
}

function readItem(raw: unknown, counter: { n: number }): TriageItem | string {
  const o = asRecord(raw);
  if (!o) return 'notAnObject';
  const path = text(o.path ?? o.file ?? o.filePath ?? o.filename);
  if (!path) return 'missingPath';
  const rawTier = text(o.tier ?? o.risk ?? o.level)?.toLowerCase();
  const tier = rawTier ? TIER_SYNONYMS[rawTier] : undefined;
  if (!tier) return 'missingTier';
  if (rawTier !== tier) counter.n++;
  return {
    path,
    tier,
    securityEscalate: flag(o.securityEscalate ?? o.security_escalate ?? o.security, counter),
    skip: flag(o.skip ?? o.skipReview, counter),
    why: (text(o.why ?? o.reason ?? o.reasoning) ?? '').slice(0, 300),
  };
}

function flag(value: unknown, counter: { n: number }): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    counter.n++;
    return /^(?:true|yes|1)$/i.test(value.trim());
  }
  return false;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() || undefined : undefined;
}

/** The triage call's structured-output spec: usable when at least one file's triage could be read. */
export const TRIAGE_ANSWER_SPEC: StructuredSpec<TriageAnswer> = {
  name: 'report_triage',
  description: 'Reports the triage of every file given. Call it once.',
  schema: TriageAnswerWire,
  example: JSON.stringify({
    files: [
      {
        path: 'src/users.ts',
        why: 'Changes the id comparison that decides which user is saved.',
        tier: 'medium',
        securityEscalate: false,
        skip: false,
      },
      { path: 'src/format.ts', why: 'Only reworded comments.', tier: 'low', securityEscalate: false, skip: true },
    ],
  }),
  read(value) {
    const answer = readTriageAnswer(value);
    if (!answer) return undefined;
    const reasons = [...new Set(answer.dropped.map((d) => d.reason))].join(', ');
    return {
      value: answer,
      usable: answer.value.length > 0,
      problem:
        answer.dropped.length > 0
          ? `none of its ${answer.dropped.length} entries is valid (${reasons}).`
          : 'it gives no triage for any file.',
    };
  },
};
