import type { DiffIndex, IndexedLine, IndexedRemovedLine } from '../diff/diff-index.js';
import { foldFenced } from '../hostile/fence.js';
import { similarityRatio } from './similarity-ratio.js';

/** The answer schema's limit on `quote`: a longer line can only be quoted by its beginning. */
export const QUOTE_CAP = 200;
/** A quote this long that a line starts with names that line (a model cut it short, or hit the cap). */
const PREFIX_MIN = 20;
/** A quote this long that a line contains names that line (a model quoted the expression it meant). */
const PART_MIN = 8;
const FUZZY_MIN = 0.9;
const FUZZY_TIE = 0.02;

export type QuoteHit =
  | { side: 'new'; line: IndexedLine; match: 'exact' | 'prefix' | 'part' | 'fuzzy' }
  | { side: 'old'; line: IndexedRemovedLine; match: 'exact' | 'prefix' | 'part' };

interface Entry<L> {
  line: L;
  text: string;
}

/** A file's shown lines by their compared text, built once per index on the first quote. */
interface QuoteTable {
  head: Entry<IndexedLine>[];
  removed: Entry<IndexedRemovedLine>[];
  headExact: Map<string, Entry<IndexedLine>[]>;
  headPrefix: Map<string, Entry<IndexedLine>[]>;
  removedExact: Map<string, Entry<IndexedRemovedLine>[]>;
  removedPrefix: Map<string, Entry<IndexedRemovedLine>[]>;
}

const tables = new WeakMap<DiffIndex, QuoteTable>();

/**
 * The line a quote names, nearest the model's number among equals, in this order: a head line
 * (added before context) equal to the quote; a removed line equal to it (the finding is about
 * removed code); a head line, then a removed line, that starts with it (a quote cut at the cap or
 * short of the line's end); a head line, then a removed line, that contains it (a model quoting
 * the expression it means); a head line similar enough (long lines compared by their beginning),
 * unless two are about as similar. Quote and lines are compared as the prompt showed them: fence
 * escapes folded, whitespace (tabs, CR) collapsed, trimmed.
 */
export function searchQuote(index: DiffIndex, quote: string, near: number | null): QuoteHit | undefined {
  const table = tableOf(index);
  const exact = table.headExact.get(quote);
  if (exact) {
    const added = exact.filter((e) => e.line.kind === 'added');
    return { side: 'new', line: nearestHead(added.length > 0 ? added : exact, near), match: 'exact' };
  }
  const removed = table.removedExact.get(quote);
  if (removed) return { side: 'old', line: nearestRemoved(removed, near), match: 'exact' };
  if (quote.length >= PREFIX_MIN) {
    const key = quote.slice(0, PREFIX_MIN);
    const head = table.headPrefix.get(key)?.filter((e) => e.text.startsWith(quote));
    if (head && head.length > 0) return { side: 'new', line: nearestHead(head, near), match: 'prefix' };
    const old = table.removedPrefix.get(key)?.filter((e) => e.text.startsWith(quote));
    if (old && old.length > 0) return { side: 'old', line: nearestRemoved(old, near), match: 'prefix' };
  }
  if (quote.length >= PART_MIN) {
    const head = table.head.filter((e) => e.text.includes(quote));
    if (head.length > 0) return { side: 'new', line: nearestHead(head, near), match: 'part' };
    const old = table.removed.filter((e) => e.text.includes(quote));
    if (old.length > 0) return { side: 'old', line: nearestRemoved(old, near), match: 'part' };
  }
  const fuzzy = fuzzyHead(table.head, quote);
  return fuzzy ? { side: 'new', line: fuzzy, match: 'fuzzy' } : undefined;
}

/** How a quote or a shown line compares: fence escapes folded, whitespace collapsed, trimmed. */
export function comparable(text: string): string {
  return foldFenced(text).trim().replace(/\s+/g, ' ');
}

function tableOf(index: DiffIndex): QuoteTable {
  const known = tables.get(index);
  if (known) return known;
  const table: QuoteTable = {
    head: [],
    removed: [],
    headExact: new Map(),
    headPrefix: new Map(),
    removedExact: new Map(),
    removedPrefix: new Map(),
  };
  for (const line of index.searchOrder) {
    const entry = { line, text: comparable(line.text) };
    table.head.push(entry);
    push(table.headExact, entry.text, entry);
    if (entry.text.length >= PREFIX_MIN) push(table.headPrefix, entry.text.slice(0, PREFIX_MIN), entry);
  }
  for (const line of index.removedLines) {
    const entry = { line, text: comparable(line.text) };
    table.removed.push(entry);
    push(table.removedExact, entry.text, entry);
    if (entry.text.length >= PREFIX_MIN) push(table.removedPrefix, entry.text.slice(0, PREFIX_MIN), entry);
  }
  tables.set(index, table);
  return table;
}

function push<L>(map: Map<string, Entry<L>[]>, key: string, entry: Entry<L>): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

function fuzzyHead(head: Entry<IndexedLine>[], quote: string): IndexedLine | undefined {
  let best: { line: IndexedLine; ratio: number } | undefined;
  let second = 0;
  for (const entry of head) {
    // A line longer than the cap can only have been quoted by its beginning.
    const text = entry.text.length > QUOTE_CAP ? entry.text.slice(0, quote.length) : entry.text;
    if (Math.abs(text.length - quote.length) > quote.length * (1 - FUZZY_MIN) + 1) continue;
    const ratio = similarityRatio(text, quote);
    if (ratio < FUZZY_MIN) continue;
    if (!best || ratio > best.ratio) {
      second = best?.ratio ?? second;
      best = { line: entry.line, ratio };
    } else if (ratio > second) second = ratio;
  }
  if (!best || best.ratio - second < FUZZY_TIE) return undefined;
  return best.line;
}

function nearestHead(entries: Entry<IndexedLine>[], near: number | null): IndexedLine {
  const first = entries[0] as Entry<IndexedLine>;
  if (near === null) return first.line;
  return entries.reduce((a, b) => (Math.abs(b.line.line - near) < Math.abs(a.line.line - near) ? b : a)).line;
}

/** A model may give a removed line its old number or the number of the head line it sat before. */
function nearestRemoved(entries: Entry<IndexedRemovedLine>[], near: number | null): IndexedRemovedLine {
  const first = entries[0] as Entry<IndexedRemovedLine>;
  if (near === null) return first.line;
  const distance = (r: IndexedRemovedLine) => Math.min(Math.abs(r.line - near), Math.abs(r.newLineAfter - near));
  return entries.reduce((a, b) => (distance(b.line) < distance(a.line) ? b : a)).line;
}
