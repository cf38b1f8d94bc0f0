/**
 * Test support: a repository whose feature branch holds the changes anchoring gets wrong most
 * easily — lines longer than the quote cap (markdown paragraphs, SQL literals, SVG paths, long
 * comments), characters the prompt's fence escapes (shell here-strings), CRLF and bare CR line ends,
 * no final newline, tabs, a rename with edits, edited and removed lines — and a scripted reviewer
 * that quotes chosen lines the way models do: as the prompt showed them or as the file has them,
 * cut short, with the number and marker copied, tabs expanded, and a line number off by up to 3.
 */
import type { FakeChatAnswer, FakeChatRequest } from '@margin/providers/testing';
import type { CommitStep } from '../git-repository.js';
import { confirmAll, findingsAnswer, isVerifying, numbered, userOf } from './review-scripts.js';

/** A line a finding is about: its file, side and text, and whether the diff shows it. */
export interface CorpusTarget {
  id: string;
  /** The head path (the base path for `side: 'old'`). */
  path: string;
  /** The path the reviewer writes, when not `path` (a renamed file's old name). */
  writtenPath?: string;
  side: 'new' | 'old';
  /** The line's number in the head (new) or base (old) version. */
  line: number;
  /** The line as the file holds it, without its line end. */
  text: string;
  /** Outside every hunk: no posted line has this text, so the finding must not be on a line. */
  outsideDiff?: boolean;
  forms: QuoteForm[];
}

/**
 * How the reviewer copies the line: `shown` as the prompt showed it (fence escapes included),
 * `raw` as the file has it, `numbered` with the prompt's number and marker, `cut` its first 150
 * characters, `tabs` with tabs expanded and a trailing CR, `firstSegment` up to the first CR (a
 * bare-CR file read as several lines), `twoLines` with the next line after a newline, `part` a
 * stretch from its middle, `typo` with one character of its first 150 miscopied.
 */
export type QuoteForm = 'shown' | 'raw' | 'numbered' | 'cut' | 'tabs' | 'firstSegment' | 'twoLines' | 'part' | 'typo';

const WORDS =
  'the job queue keeps every review request until a worker claims it and a worker that stops answering loses its claim after the lease ends so another worker retries the request from its last recorded step without posting any comment twice because each thread carries its marker'.split(
    ' ',
  );
/** A paragraph of `n` words starting at word `from`: long, unwrapped, distinct from its neighbours. */
const prose = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => WORDS[(from + i * 7) % WORDS.length]).join(' ');

const PARAGRAPHS = Array.from({ length: 8 }, (_, i) => `${prose(i * 5, 55 + i * 6)}.`);
const OPS_BEFORE = [
  '# Operations',
  '',
  ...PARAGRAPHS.flatMap((p, i) => [`## Step ${i + 1}`, '', p, '']),
  'See also [the runbook](runbook.md).',
].join('\n');
const OPS_AFTER = [
  '# Operations',
  '',
  ...PARAGRAPHS.flatMap((p, i) =>
    i === 3
      ? [`## Step ${i + 1}`, '', `${p.slice(0, -1)} and the lease length comes from the configuration.`, '']
      : i === 5
        ? [`## Step ${i + 1}`, '', p, '', `Note: ${prose(40, 70)}.`, '']
        : [`## Step ${i + 1}`, '', p, ''],
  ),
  'See also [the runbook](runbook.md).',
].join('\n');

const SQL_BEFORE = `import { sql } from './db';

export const OVERDUE = sql\`SELECT id FROM invoices WHERE due_at < now()\`;

export function overdue(db: Db) {
  return db.many(OVERDUE);
}
`;
const SQL_LONG =
  "export const OVERDUE = sql`SELECT i.id, i.customer_id, i.total_cents, i.currency, i.due_at, c.email, c.display_name, c.locale FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.due_at < now() AND i.paid_at IS NULL AND i.status <> 'void' AND c.deleted_at IS NULL ORDER BY i.due_at ASC LIMIT 500`;";
const SQL_AFTER = SQL_BEFORE.replace(/^export const OVERDUE = .*$/m, SQL_LONG);

const SVG_PATH_BEFORE =
  '  <path fill="#1f6feb" d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8z"/>';
const SVG_PATH_AFTER =
  '  <path fill="#1f6feb" fill-rule="evenodd" d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8zm-1-13h2v6h-2zm0 8h2v2h-2z" stroke="none" stroke-width="0" opacity="0.95"/>';
const SVG = (path: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="24" height="24">\n  <title>Status</title>\n${path}\n</svg>\n`;

const DEPLOY_BEFORE = `#!/usr/bin/env bash
set -euo pipefail

target="$1"
read -r host port <<< "$target"
echo "deploying to $host"
status=$(curl -fsS "http://$host:$port/health")
exit 0
`;
const DEPLOY_AFTER = `#!/usr/bin/env bash
set -euo pipefail

target="$1"
read -r host port <<< "$target"
echo ">>> deploying to $host:$port"
status=$(curl -fsS "http://$host:$port/health")
grep -q '^ready$' <<< "$status" || { echo "<<< not ready: $status" >&2; exit 1; }
exit 0
`;

const INSTALL_BEFORE = '@echo off\r\nset TARGET=%ProgramFiles%\\Margin\r\ncopy margin.exe "%TARGET%"\r\nexit /b 0\r\n';
const INSTALL_AFTER =
  '@echo off\r\nset TARGET=%ProgramFiles%\\Margin\r\nif not exist "%TARGET%" mkdir "%TARGET%"\r\ncopy /Y margin.exe "%TARGET%"\r\nexit /b 0\r\n';

const NOTES_BEFORE = 'Release notes for the classic build\rFixed the printer queue stalls\rAdded the export menu';
const NOTES_AFTER =
  'Release notes for the classic build 2.1\rFixed the printer queue stalls on shared drives\rAdded the export menu';

const RETRY_BEFORE =
  'import time\n\n\ndef retry(call, attempts=3):\n    for _ in range(attempts):\n        return call()';
const RETRY_AFTER =
  'import time\n\n\ndef retry(call, attempts=3):\n    for attempt in range(attempts):\n        time.sleep(2 ** attempt)\n        return call()';

const WORKER_BEFORE = `package worker

func (w *Worker) Run(ctx context.Context) error {
\tfor {
\t\tjob, err := w.queue.Claim(ctx)
\t\tif err != nil {
\t\t\treturn err
\t\t}
\t\tw.handle(job)
\t}
}
`;
const WORKER_AFTER = `package worker

func (w *Worker) Run(ctx context.Context) error {
\tfor {
\t\tjob, err := w.queue.Claim(ctx)
\t\tif err != nil {
\t\t\treturn fmt.Errorf("claim: %w", err)
\t\t}
\t\tif err := w.handle(job); err != nil {
\t\t\treturn fmt.Errorf("claim: %w", err)
\t\t}
\t}
}
`;

const TOTALS_BEFORE = numbered(24, (i) =>
  i === 9 ? '  const total = lines.reduce((sum, l) => sum + l.price, 0);' : `  step(${i});`,
);
const TOTALS_AFTER = numbered(24, (i) =>
  i === 9 ? '  const total = lines.reduce((sum, l) => sum + l.price * l.qty, 0);' : `  step(${i});`,
);

/** Far from every hunk of `src/rates.ts`. */
const RATES_UNCHANGED = '  return Math.round(amount * rate * 100) / 100;';
const RATES_BEFORE = numbered(90, (i) =>
  i === 10
    ? '  const rate = TAX_TABLE[order.region] ?? DEFAULT_RATE;'
    : i === 14
      ? '  audit.log(order.id, rate);'
      : i === 80
        ? RATES_UNCHANGED
        : `  step(${i});`,
);
const RATES_AFTER = RATES_BEFORE.replace(
  '  const rate = TAX_TABLE[order.region] ?? DEFAULT_RATE;',
  '  const rate = TAX_TABLE[order.region] ?? DEFAULT_RATES;',
).replace('  audit.log(order.id, rate);\n', '');

const COMMENT_A =
  '// Retries back off exponentially because the provider counts every attempt against the same per-minute quota, so a tight loop would lock the whole installation out for the rest of the minute and fail reviews that have nothing to do with this one; the base delay doubles per attempt and is capped at the lease length, so a retried step never outlives the claim of the worker that runs it.';
const COMMENT_B =
  '// The jitter is drawn per attempt rather than once per job, otherwise workers that failed together would also retry together and hit the provider in the same second again, which is exactly the burst the quota punishes; the draw uses the job id as its seed, so a rerun of the same job waits the same way and its protocol can be compared with the first run line by line.';
const POLICY_BEFORE = 'export const policy = { attempts: 3, baseMs: 500 };\n';
const POLICY_AFTER = `${COMMENT_A}\n${COMMENT_B}\nexport const policy = { attempts: 3, baseMs: 500 };\n`;

/** The base commit on `main`, then the change on `feature` in two commits (one a rename with edits). */
export const ANCHOR_CORPUS_STEPS: CommitStep[] = [
  {
    message: 'Import the service',
    branch: 'main',
    files: {
      'docs/operations.md': OPS_BEFORE,
      'src/queries.ts': SQL_BEFORE,
      'assets/status.svg': SVG(SVG_PATH_BEFORE),
      'scripts/deploy.sh': DEPLOY_BEFORE,
      'win/install.bat': INSTALL_BEFORE,
      'legacy/notes.txt': NOTES_BEFORE,
      'src/retry.py': RETRY_BEFORE,
      'src/worker.go': WORKER_BEFORE,
      'src/billing/invoice_total.ts': TOTALS_BEFORE,
      'src/rates.ts': RATES_BEFORE,
      'src/retry-policy.ts': POLICY_BEFORE,
    },
  },
  {
    message: 'Harden deployment and billing',
    branch: 'feature',
    files: {
      'docs/operations.md': OPS_AFTER,
      'src/queries.ts': SQL_AFTER,
      'assets/status.svg': SVG(SVG_PATH_AFTER),
      'scripts/deploy.sh': DEPLOY_AFTER,
      'win/install.bat': INSTALL_AFTER,
      'legacy/notes.txt': NOTES_AFTER,
      'src/retry.py': RETRY_AFTER,
      'src/worker.go': WORKER_AFTER,
    },
  },
  {
    message: 'Rename the totals and explain the retry policy',
    renames: [['src/billing/invoice_total.ts', 'src/billing/totals.ts']],
    files: {
      'src/billing/totals.ts': TOTALS_AFTER,
      'src/rates.ts': RATES_AFTER,
      'src/retry-policy.ts': POLICY_AFTER,
    },
  },
];

/** The number of `text` among `content`'s lines (line ends `\n`, a trailing `\r` ignored). */
function lineOf(content: string, text: string, occurrence = 0): number {
  const lines = content.split('\n').map((l) => l.replace(/\r$/, ''));
  let seen = 0;
  for (let i = 0; i < lines.length; i++) if (lines[i] === text && seen++ === occurrence) return i + 1;
  throw new Error(`corpus line not found: ${text.slice(0, 60)}`);
}

const target = (
  id: string,
  path: string,
  content: string,
  text: string,
  forms: QuoteForm[],
  extra: Partial<CorpusTarget> & { occurrence?: number } = {},
): CorpusTarget => {
  const { occurrence, ...rest } = extra;
  return { id, path, side: 'new', line: lineOf(content, text, occurrence), text, forms, ...rest };
};

const longComment = `Note: ${prose(40, 70)}.`;
const edited = `${PARAGRAPHS[3]?.slice(0, -1)} and the lease length comes from the configuration.`;

/** Every line the scripted reviewer comments on, with the ways it quotes each. */
export const ANCHOR_CORPUS_TARGETS: CorpusTarget[] = [
  target('md-added', 'docs/operations.md', OPS_AFTER, longComment, ['shown', 'raw', 'cut', 'numbered', 'typo']),
  target('md-edited', 'docs/operations.md', OPS_AFTER, edited, ['shown', 'raw', 'cut', 'part']),
  target('md-context', 'docs/operations.md', OPS_AFTER, PARAGRAPHS[5] as string, ['shown', 'cut']),
  target('sql', 'src/queries.ts', SQL_AFTER, SQL_LONG, ['shown', 'raw', 'cut', 'part', 'typo']),
  target('svg', 'assets/status.svg', SVG(SVG_PATH_AFTER), SVG_PATH_AFTER, ['shown', 'raw', 'cut']),
  target('sh-here', 'scripts/deploy.sh', DEPLOY_AFTER, DEPLOY_AFTER.split('\n')[7] as string, ['shown', 'raw']),
  target('sh-echo', 'scripts/deploy.sh', DEPLOY_AFTER, DEPLOY_AFTER.split('\n')[5] as string, ['shown', 'raw']),
  target('sh-context', 'scripts/deploy.sh', DEPLOY_AFTER, 'read -r host port <<< "$target"', ['shown', 'raw']),
  target('bat-crlf', 'win/install.bat', INSTALL_AFTER, 'copy /Y margin.exe "%TARGET%"', ['shown', 'raw', 'tabs']),
  target('bare-cr', 'legacy/notes.txt', NOTES_AFTER, NOTES_AFTER, ['shown', 'raw', 'firstSegment']),
  target('no-eol', 'src/retry.py', RETRY_AFTER, '        return call()', ['shown', 'raw', 'numbered']),
  target('py-added', 'src/retry.py', RETRY_AFTER, '        time.sleep(2 ** attempt)', ['shown', 'twoLines']),
  target('go-tabs', 'src/worker.go', WORKER_AFTER, '\t\tif err := w.handle(job); err != nil {', ['shown', 'tabs']),
  target('go-dup-1', 'src/worker.go', WORKER_AFTER, '\t\t\treturn fmt.Errorf("claim: %w", err)', ['shown', 'raw']),
  target('go-dup-2', 'src/worker.go', WORKER_AFTER, '\t\t\treturn fmt.Errorf("claim: %w", err)', ['shown', 'raw'], {
    occurrence: 1,
  }),
  target(
    'renamed',
    'src/billing/totals.ts',
    TOTALS_AFTER,
    '  const total = lines.reduce((sum, l) => sum + l.price * l.qty, 0);',
    ['shown', 'raw'],
  ),
  target(
    'renamed-old-name',
    'src/billing/totals.ts',
    TOTALS_AFTER,
    '  const total = lines.reduce((sum, l) => sum + l.price * l.qty, 0);',
    ['raw'],
    { writtenPath: 'src/billing/invoice_total.ts' },
  ),
  target('comment-a', 'src/retry-policy.ts', POLICY_AFTER, COMMENT_A, ['shown', 'raw', 'cut', 'typo']),
  target('comment-b', 'src/retry-policy.ts', POLICY_AFTER, COMMENT_B, ['shown', 'numbered']),
  target('rates-edited', 'src/rates.ts', RATES_AFTER, '  const rate = TAX_TABLE[order.region] ?? DEFAULT_RATES;', [
    'shown',
    'raw',
    'typo',
  ]),
  {
    ...target(
      'rates-replaced',
      'src/rates.ts',
      RATES_BEFORE,
      '  const rate = TAX_TABLE[order.region] ?? DEFAULT_RATE;',
      ['raw', 'twoLines'],
    ),
    side: 'old',
  },
  { ...target('rates-removed', 'src/rates.ts', RATES_BEFORE, '  audit.log(order.id, rate);', ['raw']), side: 'old' },
  target('rates-outside', 'src/rates.ts', RATES_AFTER, RATES_UNCHANGED, ['raw', 'cut'], { outsideDiff: true }),
];

/** The nth number off: 0, +1, −1, +2, −2, +3, −3, again. */
const SHIFTS = [0, 1, -1, 2, -2, 3, -3];

/** One finding the reviewer gives: a target quoted in one form. */
export interface CorpusFinding {
  key: string;
  target: CorpusTarget;
  form: QuoteForm;
  shift: number;
}

export const ANCHOR_CORPUS_FINDINGS: CorpusFinding[] = ANCHOR_CORPUS_TARGETS.flatMap((t) =>
  t.forms.map((form) => ({ key: `${t.id}/${form}`, target: t, form, shift: 0 })),
).map((f, i) => ({ ...f, shift: SHIFTS[i % SHIFTS.length] as number }));

/** The line as the prompt showed it in `section` (a file's part of the diff), by its number. */
function shownLine(section: string, line: number): { text: string; numbered: string } | undefined {
  for (const row of section.split('\n')) {
    const m = /^( *)(\d+) ([+ ]) (.*)$/s.exec(row);
    if (m && Number(m[2]) === line) return { text: m[4] as string, numbered: row };
  }
  return undefined;
}

function quoteOf(finding: CorpusFinding, section: string): string {
  const { target: t, form } = finding;
  const shown = t.side === 'new' ? shownLine(section, t.line) : undefined;
  switch (form) {
    case 'shown':
      return shown?.text ?? t.text;
    case 'numbered':
      return shown?.numbered ?? t.text;
    case 'cut':
      return (shown?.text ?? t.text).slice(0, 150);
    case 'tabs':
      return `${t.text.replace(/\t/g, '    ')}\r`;
    case 'firstSegment':
      return t.text.split('\r')[0] as string;
    case 'twoLines':
      return `${t.text}\n  next();`;
    case 'part':
      return t.text.trim().slice(4, 60);
    case 'typo': {
      const text = (shown?.text ?? t.text).slice(0, 150);
      const at = Math.floor(text.length / 2);
      return `${text.slice(0, at)}${text[at] === 'x' ? 'y' : 'x'}${text.slice(at + 1)}`;
    }
    default:
      return t.text;
  }
}

/**
 * The scripted reviewer: for each chunk, up to 8 findings (the answer's limit) it has not given
 * yet, about the files the chunk shows; run the review until `pending()` is 0. Titles start with
 * the finding's key, so a test can tell where each one was posted.
 */
export function anchorCorpusReviewer(findings: readonly CorpusFinding[] = ANCHOR_CORPUS_FINDINGS) {
  const given = new Set<string>();
  const respond = (request: FakeChatRequest): FakeChatAnswer => {
    if (isVerifying(request)) return confirmAll(request);
    const user = userOf(request);
    const sections = new Map<string, string>();
    for (const part of user.split('\n## File: ').slice(1)) sections.set(part.slice(0, part.indexOf('  (')), part);
    const answer = [];
    for (const f of findings) {
      const section = sections.get(f.target.path);
      if (!section || given.has(f.key) || answer.length >= 8) continue;
      given.add(f.key);
      const line = f.target.line + f.shift;
      answer.push({
        path: f.target.writtenPath ?? f.target.path,
        quote: quoteOf(f, section),
        startLine: line,
        endLine: line,
        category: 'bug',
        title: `${f.key} defect`,
        severity: 'error',
        message: `Corpus finding ${f.key}: this line fails for an empty input.`,
      });
    }
    return findingsAnswer(...answer);
  };
  return { respond, pending: () => findings.filter((f) => !given.has(f.key)).length };
}
