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
 * Cuts a file into chunks. With symbols, cuts fall on the starts of top-level definitions, whole
 * definitions kept together up to `MAX_CHUNK_LINES`; a longer one (and a file without symbols) is cut
 * into overlapping fixed windows.
 */
export function chunkFile(text: string, symbols: readonly IndexSymbolInput[]): IndexChunkInput[] {
  const lines = text.split(/\r?\n/).map((l) => (l.length > MAX_LINE_CHARS ? l.slice(0, MAX_LINE_CHARS) : l));
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  if (lines.length === 0 || (lines.length === 1 && lines[0]?.trim() === '')) return [];
  const starts = [...new Set(symbols.filter((s) => s.container === null && s.line > 1).map((s) => s.line))].sort(
    (a, b) => a - b,
  );
  // Segments between definition starts (1-based, inclusive); without symbols, the whole file.
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
    if (open && end - open[0] + 1 <= MAX_CHUNK_LINES) {
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
