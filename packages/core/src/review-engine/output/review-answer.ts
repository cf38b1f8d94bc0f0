import { z } from 'zod';
import type { StructuredSpec } from '../../ai-model/index.js';

export const FINDING_CATEGORIES = [
  'bug',
  'security',
  'performance',
  'concurrency',
  'error-handling',
  'api-contract',
  'maintainability',
  'tests',
  'docs',
] as const;
export type FindingCategory = (typeof FINDING_CATEGORIES)[number];

export const SEVERITIES = ['error', 'warning', 'suggestion', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const CLAIM_KINDS = ['none', 'unused', 'undefined', 'missing-file', 'duplicate', 'unreachable'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

/**
 * What a reviewing model answers, as sent to vendors (native JSON schema, the forced tool's
 * parameters, and the compact copy in text mode). Every property is required and "optional" is
 * `null`, because strict structured-output modes reject optional properties; fields are in
 * generation order so the model states evidence before its verdict. Limits are in the descriptions
 * and enforced when reading, since not every vendor accepts numeric keywords in strict mode.
 */
const ReviewFindingWire = z.object({
  path: z.string().describe('A file of this chunk, exactly as in its "## File:" header.'),
  quote: z
    .string()
    .describe(
      'The anchor line copied verbatim from a __new hunk__, without its number or marker; at most 200 characters.',
    ),
  startLine: z.number().int().describe('New-file line number of the first line concerned.'),
  endLine: z.number().int().describe('New-file line number of the last line; at most 20 lines after startLine.'),
  category: z.enum(FINDING_CATEGORIES),
  title: z.string().describe('At most 80 characters, starting with a noun, e.g. "Null dereference of `member`".'),
  evidence: z
    .string()
    .describe('At most 400 characters: the code facts and a trigger scenario (input or state → consequence).'),
  claim: z.object({
    kind: z.enum(CLAIM_KINDS),
    symbol: z.string().nullable(),
    path: z.string().nullable(),
  }),
  severity: z.enum(SEVERITIES),
  confidence: z.number().int().describe('0–100.'),
  message: z.string().describe('1–3 sentences, at most 600 characters, no line numbers.'),
  suggestion: z.string().nullable().describe('Replacement code for exactly startLine..endLine, or null.'),
  ruleId: z.string().nullable().describe('The repository instruction that motivated the finding, or null.'),
});

export const ReviewAnswerWire = z.object({
  findings: z.array(ReviewFindingWire).describe('At most 8 findings. An empty list means nothing worth reporting.'),
  fileNotes: z.string().nullable().describe('At most 300 characters about the change, or null.'),
});

/** A finding as read from a model, coerced and checked; lines are what the model said. */
export interface ProposedFinding {
  path: string;
  quote: string;
  startLine: number | null;
  endLine: number | null;
  category: FindingCategory;
  title: string;
  evidence: string;
  claim: { kind: ClaimKind; symbol: string | null; path: string | null };
  severity: Severity;
  confidence: number;
  message: string;
  suggestion: string | null;
  ruleId: string | null;
  /** Labels (`K1`, `K2`, …) of the knowledge results the finding relies on; only asked for when knowledge tools were offered. */
  knowledgeRefs?: string[] | undefined;
}

export interface ReadAnswer<T> {
  value: T;
  /** Items left out, each with why: recorded as `filtering` events. */
  dropped: Array<{ index: number; reason: string }>;
  /** Values changed to fit the schema (severity synonyms, numeric strings, ...), counted for diagnostics. */
  coercions: number;
}

export const MAX_FINDINGS_PER_CHUNK = 8;

/**
 * Reads a parsed answer leniently: a bare array is the findings list, common field-name variants
 * are accepted, severity synonyms and numeric strings are coerced, and each invalid item is
 * dropped alone with its reason (per-item salvage). `undefined` when the shape is unusable.
 */
export function readReviewAnswer(
  value: unknown,
): ReadAnswer<{ findings: ProposedFinding[]; fileNotes: string | null }> | undefined {
  const root = Array.isArray(value) ? { findings: value } : asRecord(value);
  if (!root) return undefined;
  const list = root.findings ?? root.issues ?? root.comments ?? root.items;
  if (!Array.isArray(list)) return undefined;
  const dropped: Array<{ index: number; reason: string }> = [];
  const findings: ProposedFinding[] = [];
  const counter = { n: 0 };
  list.forEach((item, index) => {
    const read = readFinding(item, counter);
    if (typeof read === 'string') dropped.push({ index, reason: read });
    else if (findings.length >= MAX_FINDINGS_PER_CHUNK) dropped.push({ index, reason: 'overItemLimit' });
    else findings.push(read);
  });
  const notes = typeof root.fileNotes === 'string' ? root.fileNotes.slice(0, 300) : null;
  return { value: { findings, fileNotes: notes }, dropped, coercions: counter.n };
}

const SEVERITY_SYNONYMS: Record<string, Severity> = {
  error: 'error',
  critical: 'error',
  blocker: 'error',
  high: 'error',
  severe: 'error',
  warning: 'warning',
  warn: 'warning',
  medium: 'warning',
  major: 'warning',
  moderate: 'warning',
  suggestion: 'suggestion',
  low: 'suggestion',
  minor: 'suggestion',
  nit: 'suggestion',
  nitpick: 'suggestion',
  trivial: 'suggestion',
  info: 'info',
  information: 'info',
  informational: 'info',
  note: 'info',
};

const CATEGORY_SYNONYMS: Record<string, FindingCategory> = {
  correctness: 'bug',
  logic: 'bug',
  'possible-bug': 'bug',
  defect: 'bug',
  vulnerability: 'security',
  perf: 'performance',
  efficiency: 'performance',
  'race-condition': 'concurrency',
  race: 'concurrency',
  'thread-safety': 'concurrency',
  errors: 'error-handling',
  exceptions: 'error-handling',
  'exception-handling': 'error-handling',
  api: 'api-contract',
  contract: 'api-contract',
  compatibility: 'api-contract',
  style: 'maintainability',
  readability: 'maintainability',
  'code-quality': 'maintainability',
  design: 'maintainability',
  testing: 'tests',
  test: 'tests',
  documentation: 'docs',
  doc: 'docs',
};

function readFinding(item: unknown, counter: { n: number }): ProposedFinding | string {
  const o = asRecord(item);
  if (!o) return 'notAnObject';
  const path = text(o.path ?? o.file ?? o.filePath ?? o.relevant_file ?? o.filename);
  if (!path) return 'missingPath';
  const message = text(o.message ?? o.description ?? o.body ?? o.issue_content ?? o.comment);
  if (!message) return 'missingMessage';
  const quote = text(o.quote ?? o.existing_code ?? o.code ?? o.line_content) ?? '';
  const startLine = lineNumber(o.startLine ?? o.start_line ?? o.line ?? o.lineNumber, counter);
  const endLine = lineNumber(o.endLine ?? o.end_line, counter) ?? startLine;
  if (startLine === null && !quote) return 'missingLocation';

  const rawSeverity = text(o.severity ?? o.level ?? o.priority)?.toLowerCase();
  let severity = rawSeverity ? SEVERITY_SYNONYMS[rawSeverity] : undefined;
  if (rawSeverity !== undefined && rawSeverity !== severity) counter.n++;
  if (!severity) {
    if (rawSeverity === undefined) counter.n++;
    severity = 'warning';
  }

  const rawCategory = text(o.category ?? o.type ?? o.label)
    ?.toLowerCase()
    .replace(/[\s_]+/g, '-');
  let category: FindingCategory = 'maintainability';
  if (rawCategory && (FINDING_CATEGORIES as readonly string[]).includes(rawCategory))
    category = rawCategory as FindingCategory;
  else {
    counter.n++;
    if (rawCategory && CATEGORY_SYNONYMS[rawCategory]) category = CATEGORY_SYNONYMS[rawCategory];
  }

  const claimRecord = asRecord(o.claim);
  const claimKind = text(claimRecord?.kind)?.toLowerCase();
  const claim = {
    kind: (CLAIM_KINDS as readonly string[]).includes(claimKind ?? '') ? (claimKind as ClaimKind) : 'none',
    symbol: text(claimRecord?.symbol) ?? null,
    path: text(claimRecord?.path) ?? null,
  } as ProposedFinding['claim'];

  return {
    path,
    quote: quote.slice(0, 200),
    startLine,
    endLine: endLine !== null && startLine !== null && endLine < startLine ? startLine : endLine,
    category,
    title: (text(o.title ?? o.issue_header ?? o.summary) ?? firstSentence(message)).slice(0, 80),
    evidence: (text(o.evidence ?? o.reasoning) ?? '').slice(0, 400),
    claim,
    severity,
    confidence: confidence(o.confidence ?? o.score, counter),
    message: message.slice(0, 600),
    suggestion: code(o.suggestion ?? o.improved_code ?? o.fix) ?? null,
    ruleId: text(o.ruleId ?? o.rule_id ?? o.rule) ?? null,
    ...knowledgeRefsOf(o.knowledgeRefs ?? o.knowledge_refs ?? o.citations),
  };
}

/** A knowledge result's label as the tools print it: `K` and a number. */
const KNOWLEDGE_LABEL = /^\[?K(\d{1,4})\]?$/i;
const MAX_KNOWLEDGE_REFS = 10;

/** Labels the finding names, normalised (`[k2]` → `K2`); anything else in the list is ignored. */
function knowledgeRefsOf(value: unknown): { knowledgeRefs?: string[] } {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  const refs = new Set<string>();
  for (const item of list) {
    const match = typeof item === 'string' ? KNOWLEDGE_LABEL.exec(item.trim()) : null;
    if (match) refs.add(`K${Number(match[1])}`);
    if (refs.size >= MAX_KNOWLEDGE_REFS) break;
  }
  return refs.size > 0 ? { knowledgeRefs: [...refs] } : {};
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** Replacement code keeps its first line's indentation (a committable suggestion replaces whole lines). */
function code(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return text(value);
  return value.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd();
}

function lineNumber(value: unknown, counter: { n: number }): number | null {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) {
    counter.n++;
    const n = Number(value);
    return n > 0 ? n : null;
  }
  return null;
}

function confidence(value: unknown, counter: { n: number }): number {
  let n = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  if (typeof value === 'string') counter.n++;
  if (!Number.isFinite(n)) return 50;
  if (n > 0 && n <= 1 && !Number.isInteger(n)) n *= 100; // 0.8 means 80
  return Math.max(0, Math.min(100, Math.round(n)));
}

function firstSentence(message: string): string {
  return (message.split(/(?<=[.!?])\s/)[0] ?? message).trim();
}

const EXAMPLE = JSON.stringify({
  findings: [
    {
      path: 'src/users.ts',
      quote: 'if (user.id = 0) {',
      startLine: 12,
      endLine: 12,
      category: 'bug',
      title: 'Assignment instead of comparison in the id check',
      evidence: '`user.id = 0` assigns; the branch never runs and every id becomes 0.',
      claim: { kind: 'none', symbol: null, path: null },
      severity: 'error',
      confidence: 90,
      message: 'This assigns 0 to `user.id` instead of comparing it, so every user is saved with id 0.',
      suggestion: 'if (user.id === 0) {',
      ruleId: null,
    },
  ],
  fileNotes: null,
});

export type ReviewAnswer = ReadAnswer<{ findings: ProposedFinding[]; fileNotes: string | null }>;

/** The reviewing call's structured-output spec: an answer is usable unless every item was invalid. */
export const REVIEW_ANSWER_SPEC: StructuredSpec<ReviewAnswer> = {
  name: 'report_findings',
  description: 'Reports the findings of this review. Call it once, with an empty list when nothing is worth reporting.',
  schema: ReviewAnswerWire,
  example: EXAMPLE,
  read(value) {
    const answer = readReviewAnswer(value);
    if (!answer) return undefined;
    const usable = answer.value.findings.length > 0 || answer.dropped.length === 0;
    const reasons = [...new Set(answer.dropped.map((d) => d.reason))].join(', ');
    return {
      value: answer,
      usable,
      problem: usable ? undefined : `none of its ${answer.dropped.length} findings is valid (${reasons}).`,
    };
  },
};

/**
 * The same answer with each finding naming the knowledge results it relies on, for chunks offered
 * `search_knowledge` and `get_symbol`: strict structured-output modes accept no property the
 * schema does not list, so the labels need a field of their own.
 */
export const ReviewAnswerWithKnowledgeWire = ReviewAnswerWire.extend({
  findings: z
    .array(
      ReviewFindingWire.extend({
        knowledgeRefs: z
          .array(z.string())
          .nullable()
          .describe('Labels of the knowledge results this finding relies on, e.g. ["K2"], or null when none.'),
      }),
    )
    .describe('At most 8 findings. An empty list means nothing worth reporting.'),
});

export const REVIEW_ANSWER_WITH_KNOWLEDGE_SPEC: StructuredSpec<ReviewAnswer> = {
  ...REVIEW_ANSWER_SPEC,
  schema: ReviewAnswerWithKnowledgeWire,
  example: JSON.stringify({
    ...JSON.parse(EXAMPLE),
    findings: (JSON.parse(EXAMPLE) as { findings: object[] }).findings.map((f) => ({ ...f, knowledgeRefs: null })),
  }),
};
