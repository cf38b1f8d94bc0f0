import { createHash } from 'node:crypto';
import { MarginError } from '../../kernel/index.js';
import type { ChangedFile, FileDiff, Revision } from '../../scm-provider/index.js';
import type { Anchor } from '../anchor/anchor.js';
import type { CoverageFile } from '../coverage.js';
import { changedLineCount, type ParsedDiff, parseDiff } from '../diff/parse-diff.js';
import { renderFileParts } from '../diff/render-diff.js';
import type { EngineFinding } from '../engine-finding.js';
import { type InjectionHit, longCommentBlock, scanForInjection } from '../hostile/injection-scan.js';
import { hasBidiControl, revealInvisible } from '../hostile/invisible-unicode.js';
import type { SecretRedactor } from '../hostile/redact-secrets.js';
import { classifyByDiff, classifyByPath } from '../plan/classify-file.js';
import { type Tier, tierOf } from '../plan/tiers.js';
import { forEachPooled } from './pool.js';
import type { ReviewSource } from './review-source.js';

/** A file that goes to a model, with what planning and anchoring need of it. */
export interface PlannedFile {
  id: number;
  file: ChangedFile;
  /** Redacted, with invisible characters made visible; dropped once the file's chunks are done. */
  diff: ParsedDiff | undefined;
  commentable: FileDiff['commentable'];
  changedLines: number;
  tier: Tier;
  headerTokens: number;
  hunks: Array<{ index: number; tokens: number }>;
  coverage: CoverageFile;
}

export interface PreparedFiles {
  planned: PlannedFile[];
  coverage: CoverageFile[];
  /** Found without a model: committed credentials, bidi controls (Trojan Source). */
  deterministic: EngineFinding[];
  injection: InjectionHit[];
}

export interface PrepareInput {
  files: readonly ChangedFile[];
  revision: Revision;
  source: ReviewSource;
  excluded: (path: string) => boolean;
  redactor: SecretRedactor;
  countTokens: (text: string) => number;
  signal: AbortSignal;
  newId: () => string;
  /** Provider calls for diffs in flight at once. */
  concurrency: number;
  /** Called as files are settled without review, for progress. */
  onSettled(count: number): void;
  /** Whether the last review already reviewed this exact change of the file (it is carried forward). */
  unchangedSinceLastReview?: ((path: string, contentKey: string) => boolean) | undefined;
}

/**
 * A key for a file's change: the provider's blob ids when it names both (no fetch needed), else a
 * hash of the diff text.
 */
export function contentKeyOf(file: ChangedFile, diffText?: string): string | undefined {
  if (file.oldBlobId && file.newBlobId) return `blob:${file.oldBlobId}:${file.newBlobId}`;
  if (diffText === undefined) return undefined;
  return `diff:${createHash('sha256').update(diffText).digest('hex').slice(0, 32)}`;
}

/**
 * Reads every file's diff the listing cannot rule out, and makes it safe to show: secrets
 * redacted, invisible characters made visible, injection attempts noted. Files that need no model
 * (binaries, lock files, generated, vendored, excluded, deleted, renamed or reformatted only) get
 * their coverage entry and no call at all; lock files and the like are not even fetched.
 */
export async function prepareFiles(input: PrepareInput): Promise<PreparedFiles> {
  const coverage: CoverageFile[] = [];
  const toRead: Array<{ file: ChangedFile; entry: CoverageFile }> = [];
  let settled = 0;
  for (const file of input.files) {
    const entry: CoverageFile = { path: file.path, changeType: file.changeType, state: 'skipped' };
    if (file.previousPath) entry.previousPath = file.previousPath;
    coverage.push(entry);
    const skip = classifyByPath(file, input.excluded);
    if (skip) {
      entry.reason = skip;
      settled++;
    } else toRead.push({ file, entry });
  }
  input.onSettled(settled);

  const planned: Array<PlannedFile | undefined> = new Array(toRead.length);
  const deterministic: EngineFinding[] = [];
  const injection: InjectionHit[] = [];
  const carried = (entry: CoverageFile, key: string | undefined) => {
    entry.contentKey = key;
    if (!key || !input.unchangedSinceLastReview?.(entry.path, key)) return false;
    entry.state = 'carriedForward';
    entry.reason = 'unchangedSinceLastReview';
    input.onSettled(1);
    return true;
  };
  await forEachPooled(toRead, input.concurrency, async ({ file, entry }, i) => {
    if (input.signal.aborted) throw input.signal.reason ?? MarginError.internal('aborted');
    // Blob ids tell an unchanged file without reading its diff.
    if (carried(entry, contentKeyOf(file))) return;
    const fetched = await input.source.getFileDiff(file, input.revision, { signal: input.signal });
    if (!entry.contentKey && carried(entry, contentKeyOf(file, fetched.text))) return;
    const diff = parseDiff(fetched.text);
    const skip = classifyByDiff(file, diff);
    if (skip) {
      entry.reason = skip;
      input.onSettled(1);
      return;
    }
    const found = sanitise(file.path, diff, input.redactor, input.newId);
    deterministic.push(...found.findings);
    injection.push(...found.injection);
    const parts = renderFileParts({
      path: file.path,
      previousPath: file.previousPath,
      changeType: file.changeType,
      diff,
    });
    const changedLines = changedLineCount(diff);
    entry.state = 'reviewed';
    entry.tier = tierOf(file.path, changedLines);
    planned[i] = {
      id: i,
      file,
      diff,
      commentable: fetched.commentable,
      changedLines,
      tier: entry.tier,
      headerTokens: input.countTokens(parts.header),
      hunks: parts.hunks.map((h) => ({ index: h.index, tokens: input.countTokens(h.text) })),
      coverage: entry,
    };
    if (fetched.truncated) entry.reason = 'diffTruncatedByProvider';
  });
  return { planned: planned.filter((p): p is PlannedFile => p !== undefined), coverage, deterministic, injection };
}

/**
 * Redacts secrets and reveals invisible characters in every line, in place. A secret or a bidi
 * control on an added line is a finding of its own, which never repeats the value.
 */
function sanitise(
  path: string,
  diff: ParsedDiff,
  redactor: SecretRedactor,
  newId: () => string,
): { findings: EngineFinding[]; injection: InjectionHit[] } {
  const findings: EngineFinding[] = [];
  const added: string[] = [];
  for (const hunk of diff.hunks) {
    for (const line of hunk.lines) {
      const bidi = line.kind === 'added' && hasBidiControl(line.text);
      const { text, hits } = redactor.redactLine(line.text);
      line.text = revealInvisible(text);
      if (line.kind !== 'added' || line.newLine === null) continue;
      added.push(line.text);
      const anchor = (): Anchor => ({
        path,
        startLine: line.newLine as number,
        endLine: line.newLine as number,
        side: 'new',
        scope: 'onChangedLine',
        method: 'line',
        anchorText: line.text,
        agreed: true,
      });
      for (const type of new Set(hits.map((h) => h.type))) {
        findings.push(
          scanFinding(newId(), 'secretScan', path, anchor(), hunk.section, {
            title: `Hard-coded credential (${type})`,
            message: `A literal credential of type ${type} is committed on this line. Anyone who can read the repository can use it: remove it, rotate it, and load it from a secret store or the environment.`,
          }),
        );
      }
      if (bidi) {
        findings.push(
          scanFinding(newId(), 'bidiScan', path, anchor(), hunk.section, {
            title: 'Bidirectional control characters in code',
            message:
              'This line contains Unicode bidirectional control characters (shown as ⟦U+…⟧), which make the code display differently from how it compiles (Trojan Source). Remove them.',
          }),
        );
      }
    }
  }
  redactor.endOfText();
  const injection = scanForInjection(path, added.join('\n'));
  if (longCommentBlock(added)) injection.push({ where: path, pattern: 'long-comment-block' });
  return { findings, injection };
}

function scanFinding(
  id: string,
  source: 'secretScan' | 'bidiScan',
  path: string,
  anchor: Anchor,
  enclosingSymbol: string,
  text: { title: string; message: string },
): EngineFinding {
  return {
    id,
    source,
    chunk: -1,
    proposed: {
      path,
      quote: anchor.anchorText,
      startLine: anchor.startLine,
      endLine: anchor.endLine,
      category: 'security',
      title: text.title,
      evidence: '',
      claim: { kind: 'none', symbol: null, path: null },
      severity: 'error',
      confidence: 100,
      message: text.message,
      suggestion: null,
      ruleId: source,
    },
    category: 'security',
    severity: 'error',
    confidence: 100,
    title: text.title,
    message: text.message,
    suggestion: null,
    anchor,
    path,
    enclosingSymbol,
    publication: 'published',
  };
}
