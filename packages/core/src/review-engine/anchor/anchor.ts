import { type DiffIndex, hunkAt, type IndexedLine } from '../diff/diff-index.js';
import type { ProposedFinding } from '../output/review-answer.js';
import { comparable, searchQuote } from './quote-search.js';

/** A file a finding may anchor on, as the plan saw it. */
export interface AnchorableFile {
  path: string;
  previousPath?: string | undefined;
  deleted: boolean;
  /** The shown hunks of the file; absent for a file of the change that this review did not show. */
  index?: DiffIndex | undefined;
}

export type AnchorScope = 'onChangedLine' | 'adjacentToChange' | 'outsideChange';
export type AnchorMethod = 'quote' | 'fuzzy' | 'line' | 'oldSide' | 'snapped';

export interface Anchor {
  path: string;
  previousPath?: string | undefined;
  startLine: number;
  endLine: number;
  side: 'new' | 'old';
  scope: AnchorScope;
  method: AnchorMethod;
  /** The anchored line's text (for identity: it survives line shifts). */
  anchorText: string;
  /** The quote was found at the line number the model gave: its numbers can be trusted. */
  agreed: boolean;
  /** Said before the message when the comment had to move: "(about lines 40–42)". */
  note?: string | undefined;
}

export type AnchorResult =
  | { kind: 'anchored'; anchor: Anchor }
  /** Real file, but no line the diff shows is close enough: the finding goes to the summary. */
  | { kind: 'prLevel'; path: string; scope: 'outsideChange'; reason: string; startLine: number | null }
  | { kind: 'dropped'; reason: 'unknownPath' };

const MAX_SPAN = 20;
const ADJACENT = 3;
const SNAP_DISTANCE = 5;

/**
 * Puts a finding on a line the diff really shows, or says why it cannot. A quote decides alone
 * (models copy text better than they count): the finding goes on a shown line with that text, the
 * removed line with it (old side) when only removed code has it, or to the summary when no line
 * has it — never on the line its number names. Without a quote the number is used: a shown line,
 * else the closest added line within 5 with a note, else the summary. An invented path means an
 * invented finding, and is dropped.
 */
export function anchorFinding(finding: ProposedFinding, files: PathResolver): AnchorResult {
  const file = files.resolve(finding.path);
  if (!file) return { kind: 'dropped', reason: 'unknownPath' };
  if (file.deleted || !file.index) {
    const reason = file.deleted ? 'deletedFile' : 'notShown';
    return { kind: 'prLevel', path: file.path, scope: 'outsideChange', reason, startLine: finding.startLine };
  }
  const index = file.index;
  const span = finding.startLine !== null && finding.endLine !== null ? finding.endLine - finding.startLine : 0;
  const quote = normaliseQuote(finding.quote);

  if (quote) {
    // A quote decides alone: a number that disagrees with it is what put findings on wrong lines.
    // A line that itself begins with a number and `+` (`10 + offset,`) loses them to the stripping.
    const verbatim = comparable(firstLine(finding.quote));
    const hit =
      searchQuote(index, quote, finding.startLine) ??
      (verbatim !== quote ? searchQuote(index, verbatim, finding.startLine) : undefined);
    if (!hit) {
      return {
        kind: 'prLevel',
        path: file.path,
        scope: 'outsideChange',
        reason: 'quoteNotFound',
        startLine: finding.startLine,
      };
    }
    if (hit.side === 'old') {
      return {
        kind: 'anchored',
        anchor: {
          path: file.path,
          previousPath: file.previousPath,
          startLine: hit.line.line,
          endLine: hit.line.line,
          side: 'old',
          scope: 'onChangedLine',
          method: 'oldSide',
          anchorText: hit.line.text,
          agreed: hit.line.line === finding.startLine,
        },
      };
    }
    const method: AnchorMethod = hit.match === 'fuzzy' ? 'fuzzy' : 'quote';
    const line = hit.line.line;
    return { kind: 'anchored', anchor: place(file, index, line, line + span, method, line === finding.startLine) };
  }

  const start = finding.startLine;
  if (start === null) {
    return { kind: 'prLevel', path: file.path, scope: 'outsideChange', reason: 'quoteNotFound', startLine: null };
  }
  if (index.newLines.has(start)) {
    return { kind: 'anchored', anchor: place(file, index, start, start + span, 'line', false) };
  }
  const near = nearestAddedLine(index, start);
  if (near && near.distance <= SNAP_DISTANCE) {
    const anchor = place(file, index, near.line, near.line, 'snapped', false);
    const end = start + span;
    anchor.note = start === end ? `(about line ${start})` : `(about lines ${start}–${end})`;
    return { kind: 'anchored', anchor };
  }
  return { kind: 'prLevel', path: file.path, scope: 'outsideChange', reason: 'outsideDiff', startLine: start };
}

/** Range kept inside one hunk, at most 20 lines, scope classified. */
function place(
  file: AnchorableFile,
  index: DiffIndex,
  start: number,
  end: number,
  method: AnchorMethod,
  agreed: boolean,
): Anchor {
  const first = index.newLines.get(start) as IndexedLine;
  const hunk = hunkAt(index, start);
  if (!hunk) throw new Error(`line ${start} has no hunk`);
  let last = Math.max(start, Math.min(end, hunk.newEnd));
  while (last > start && !index.newLines.has(last)) last--;
  if (last - start + 1 > MAX_SPAN) last = start;
  let touchesAdded = false;
  for (let l = start; l <= last; l++) if (index.newLines.get(l)?.kind === 'added') touchesAdded = true;
  const scope: AnchorScope = touchesAdded
    ? 'onChangedLine'
    : hunk.addedLines.some((a) => Math.abs(a - start) <= ADJACENT) || first.kind === 'context'
      ? 'adjacentToChange'
      : 'outsideChange';
  return {
    path: file.path,
    previousPath: file.previousPath,
    startLine: start,
    endLine: last,
    side: 'new',
    scope,
    method,
    anchorText: first.text,
    agreed,
  };
}

function nearestAddedLine(index: DiffIndex, line: number): { line: number; distance: number } | undefined {
  let best: { line: number; distance: number } | undefined;
  for (const hunk of index.hunks) {
    for (const added of hunk.addedLines) {
      const distance = Math.abs(added - line);
      if (!best || distance < best.distance) best = { line: added, distance };
    }
  }
  return best;
}

/**
 * The quote as it compares with lines: its first non-blank line (a model quoting several lines
 * means the first), without a copied number and `+` marker, fence escapes folded, whitespace
 * collapsed, trimmed.
 */
export function normaliseQuote(quote: string): string {
  return comparable(
    firstLine(quote)
      .replace(/^\s*\d+\s+[+ ]\s?/, '')
      .replace(/^\s*\+(?!\+)/, ''),
  );
}

/**
 * Finds a file of the change by the path a model wrote. A chunk's resolver lays the files it shows
 * (with their diff index) over the resolver of the whole change, built once per review.
 */
export class PathResolver {
  private readonly exact = new Map<string, AnchorableFile>();
  private readonly folded = new Map<string, AnchorableFile>();

  constructor(
    files: Iterable<AnchorableFile>,
    private readonly parent?: PathResolver | undefined,
  ) {
    for (const file of files) {
      this.exact.set(file.path, file);
      this.folded.set(fold(file.path), file);
      if (file.previousPath && !this.folded.has(fold(file.previousPath)))
        this.folded.set(fold(file.previousPath), file);
    }
  }

  /** This resolver with `shown` laid over it. */
  with(shown: Iterable<AnchorableFile>): PathResolver {
    return new PathResolver(shown, this);
  }

  /** Exact; then without `./`, `a/`, `b/`, a leading `/`, backslashes and case; then a unique path suffix. */
  resolve(path: string): AnchorableFile | undefined {
    const direct = this.direct(path);
    if (direct) return this.own(direct);
    const suffix = `/${fold(path)}`;
    const matches = [...this.all()].filter((f) => `/${fold(f.path)}`.endsWith(suffix));
    return matches.length === 1 ? this.own(matches[0] as AnchorableFile) : undefined;
  }

  private direct(path: string): AnchorableFile | undefined {
    return this.exact.get(path) ?? this.folded.get(fold(path)) ?? this.parent?.direct(path);
  }

  /** The overlay's entry for a file the parent found, so a shown file comes with its index. */
  private own(file: AnchorableFile): AnchorableFile {
    return this.exact.get(file.path) ?? file;
  }

  private *all(): Iterable<AnchorableFile> {
    yield* this.exact.values();
    if (this.parent) for (const f of this.parent.all()) if (!this.exact.has(f.path)) yield f;
  }
}

function firstLine(quote: string): string {
  return quote.split('\n').find((l) => l.trim() !== '') ?? '';
}

function fold(path: string): string {
  return path
    .trim()
    .replace(/\\/g, '/')
    .replace(/^(?:\.\/|[ab]\/|\/)+/, '')
    .toLowerCase();
}
