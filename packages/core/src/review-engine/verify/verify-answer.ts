import { z } from 'zod';
import type { StructuredSpec } from '../../ai-model/index.js';

export interface VerifierFeatures {
  isDefect: boolean;
  requiresAssumedInput: boolean;
  isQualityOpinion: boolean;
  targetsUnchangedCode: boolean;
  /** `null` when the finding proposed no replacement. */
  suggestionIsCorrect: boolean | null;
}

export interface Verdict {
  id: string;
  /** 0–10. */
  score: number;
  why: string;
  features: VerifierFeatures;
  locatedQuote: string | null;
}

export const VerifyAnswerWire = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      score: z.number().int().describe('0–10.'),
      why: z.string().describe('At most 200 characters.'),
      features: z.object({
        isDefect: z.boolean(),
        requiresAssumedInput: z.boolean(),
        isQualityOpinion: z.boolean(),
        targetsUnchangedCode: z.boolean(),
        suggestionIsCorrect: z.boolean().nullable(),
      }),
      locatedQuote: z.string().nullable(),
    }),
  ),
});

function readVerdicts(value: unknown): Verdict[] | undefined {
  const root = Array.isArray(value) ? { items: value } : (value as Record<string, unknown> | null);
  const items = root && typeof root === 'object' ? (root.items ?? root.findings ?? root.verdicts) : undefined;
  if (!Array.isArray(items)) return undefined;
  const verdicts: Verdict[] = [];
  for (const raw of items) {
    if (typeof raw !== 'object' || raw === null) continue;
    const o = raw as Record<string, unknown>;
    const id = typeof o.id === 'string' || typeof o.id === 'number' ? String(o.id) : undefined;
    let score =
      typeof o.score === 'number' ? o.score : typeof o.score === 'string' ? Number.parseFloat(o.score) : Number.NaN;
    if (!id || !Number.isFinite(score)) continue;
    if (score > 10) score = score / 10; // a 0–100 scale
    const f = (typeof o.features === 'object' && o.features !== null ? o.features : {}) as Record<string, unknown>;
    verdicts.push({
      id,
      score: Math.max(0, Math.min(10, Math.round(score))),
      why: typeof o.why === 'string' ? o.why.slice(0, 200) : '',
      features: {
        isDefect: f.isDefect === true,
        requiresAssumedInput: f.requiresAssumedInput === true,
        isQualityOpinion: f.isQualityOpinion === true,
        targetsUnchangedCode: f.targetsUnchangedCode === true,
        suggestionIsCorrect: typeof f.suggestionIsCorrect === 'boolean' ? f.suggestionIsCorrect : null,
      },
      locatedQuote: typeof o.locatedQuote === 'string' && o.locatedQuote.trim() ? o.locatedQuote : null,
    });
  }
  return verdicts;
}

export const VERIFY_ANSWER_SPEC: StructuredSpec<Verdict[]> = {
  name: 'report_verdicts',
  description: 'Reports a verdict for every finding checked.',
  schema: VerifyAnswerWire,
  example: JSON.stringify({
    items: [
      {
        id: 'F1',
        score: 8,
        why: 'The assignment runs on every call; the id check never matches.',
        features: {
          isDefect: true,
          requiresAssumedInput: false,
          isQualityOpinion: false,
          targetsUnchangedCode: false,
          suggestionIsCorrect: true,
        },
        locatedQuote: 'if (user.id = 0) {',
      },
    ],
  }),
  read(value) {
    const verdicts = readVerdicts(value);
    if (!verdicts) return undefined;
    return { value: verdicts, usable: verdicts.length > 0, problem: 'it gives no readable verdict.' };
  },
};
