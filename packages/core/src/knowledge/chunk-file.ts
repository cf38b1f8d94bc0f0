import { compoundTerms } from './identifier-terms.js';
import type { IndexChunkInput, IndexSymbolInput } from './index-records.js';

/** A chunk holds at most this many lines: enough for a function, small enough to cite and embed. */
export const MAX_CHUNK_LINES = 120;
/** Without symbols, fixed windows of this many lines... */
const WINDOW_LINES = 100;
/** ...each repeating the last lines of the one before, so a passage cut in two is found whole once. */
const WINDOW_OVERLAP = 10;
/** Very long lines (minified code that slipped through) are cut so one chunk stays small. */
const MAX_LINE_CHARS = 1_000;

/**
 * Markdown sections are joined with their neighbours only while the chunk stays this short: a hit
 * then cites the section it is in, not a whole page, and a heading alone is not a chunk of its own.
 */
const MARKDOWN_JOIN_LINES = 40;

/** Files chunked by their headings rather than by definitions. */
export const isMarkdownPath = (path: string) => /\.(md|markdown)$/i.test(path);

/**
 * Cuts a file into chunks. With symbols, cuts fall on the starts of top-level definitions, whole
 * definitions kept together up to `MAX_CHUNK_LINES`; a longer one (and a file without symbols) is cut
 * into overlapping fixed windows.
 */
export function chunkFile(text: string, symbols: readonly IndexSymbolInput[]): IndexChunkInput[] {
  const lines = splitLines(text);
  const starts = symbols.filter((s) => s.container === null).map((s) => s.line);
  return chunkAt(lines, starts, MAX_CHUNK_LINES);
}

/**
 * Cuts a Markdown page at its headings (ATX `#` lines, not those inside fenced code), each section
 * kept whole; small sections join their neighbours up to `MARKDOWN_JOIN_LINES`, and a section longer
 * than `MAX_CHUNK_LINES` is cut into overlapping windows like any text.
 */
export function chunkMarkdown(text: string): IndexChunkInput[] {
  const lines = splitLines(text);
  const headings: number[] = [];
  let fence: string | undefined;
  lines.forEach((line, i) => {
    const opened = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opened !== undefined && opened[0] === fence[0] && opened.length >= fence.length) fence = undefined;
    } else if (opened !== undefined) {
      fence = opened;
    } else if (/^ {0,3}#{1,6}(\s|$)/.test(line)) {
      headings.push(i + 1);
    }
  });
  return chunkAt(lines, headings, MARKDOWN_JOIN_LINES);
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => (l.length > MAX_LINE_CHARS ? l.slice(0, MAX_LINE_CHARS) : l));
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  if (lines.length === 1 && lines[0]?.trim() === '') return [];
  return lines;
}

/**
 * Chunks cut at `cuts` (1-based lines that start a segment): consecutive segments are joined while
 * the chunk stays within `joinUpTo` lines; a segment longer than `MAX_CHUNK_LINES` becomes windows.
 */
function chunkAt(lines: readonly string[], cuts: readonly number[], joinUpTo: number): IndexChunkInput[] {
  if (lines.length === 0) return [];
  const starts = [...new Set(cuts.filter((line) => line > 1))].sort((a, b) => a - b);
  // Segments between cuts (1-based, inclusive); without cuts, the whole file.
  const segments: Array<[number, number]> = [];
  let from = 1;
  for (const start of starts) {
    if (start > lines.length) break;
    segments.push([from, start - 1]);
    from = start;
  }
  segments.push([from, lines.length]);

  const chunks: IndexChunkInput[] = [];
  const emit = (start: number, end: number) => {
    const content = lines.slice(start - 1, end).join('\n');
    if (content.trim() === '') return;
    chunks.push({ startLine: start, endLine: end, content, terms: compoundTerms(content) });
  };
  let open: [number, number] | undefined;
  for (const [start, end] of segments) {
    if (open && end - open[0] + 1 <= joinUpTo) {
      open = [open[0], end];
      continue;
    }
    if (open) emit(...open);
    open = undefined;
    if (end - start + 1 <= MAX_CHUNK_LINES) {
      open = [start, end];
      continue;
    }
    for (let s = start; s <= end; s += WINDOW_LINES - WINDOW_OVERLAP) {
      const e = Math.min(end, s + WINDOW_LINES - 1);
      emit(s, e);
      if (e === end) break;
    }
  }
  if (open) emit(...open);
  return chunks;
}
