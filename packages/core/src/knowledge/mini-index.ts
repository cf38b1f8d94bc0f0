import type {
  KnowledgeChangeV1,
  KnowledgeLookupV1,
  KnowledgeSearchHit,
  KnowledgeSymbolHit,
} from '../review-engine/index.js';
import { queryTerms } from './identifier-terms.js';
import type { IndexChunkInput, IndexSymbolInput } from './index-records.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import type { KnowledgeSourceRecord } from './knowledge-records.js';
import { repositoryLayout } from './source-layout.js';

/** Changed files a mini-index reads at most (the rest answer from the branch index only)... */
export const MINI_INDEX_MAX_FILES = 30;
/** ...and characters of their text in all, so one pull request's index stays small in memory. */
export const MINI_INDEX_MAX_CHARS = 1_000_000;
const SNIPPET_LINES = 40;

interface MiniFile {
  path: string;
  lines: string[];
  chunks: IndexChunkInput[];
  symbols: IndexSymbolInput[];
}

/**
 * The lookup with a mini-index of the pull request's changed files at the head in front of it (for
 * a source of the pull request's repository whose tracked target branch has `miniIndexEnabled`):
 * built in memory on the first question, with the indexer's chunking and symbol extraction, from
 * the review's own reads of the head. Its answers come first and cite the head commit; the
 * branch's answers for a changed, renamed-away or deleted path are dropped, as the head replaces them.
 */
export function miniIndexedLookup(
  deps: Pick<KnowledgeDeps, 'symbols'>,
  base: KnowledgeLookupV1,
  source: KnowledgeSourceRecord,
  change: KnowledgeChangeV1,
  limitOf: (options?: { limit?: number }) => number,
): KnowledgeLookupV1 {
  const replaced = new Set(change.files.flatMap((f) => [f.path, ...(f.previousPath ? [f.previousPath] : [])]));
  const fromBranch = <T extends { sourceId: string; path: string }>(hits: T[]) =>
    hits.filter((h) => h.sourceId !== source.id || !replaced.has(h.path));
  let built: Promise<MiniFile[]> | undefined;
  const files = (signal: AbortSignal | undefined) => {
    built ??= buildMiniIndex(deps, source, change, signal ?? new AbortController().signal).catch((error) => {
      built = undefined;
      throw error;
    });
    return built;
  };
  const cite = (path: string, startLine: number, endLine: number) => ({
    sourceId: source.id,
    path,
    startLine,
    endLine,
    commit: change.headSha,
  });
  return {
    async search(query, options) {
      const limit = limitOf(options);
      const mini = searchMini(await files(options?.signal), query).slice(0, limit);
      const hits: KnowledgeSearchHit[] = mini.map((m) => ({
        ...cite(m.file.path, m.chunk.startLine, m.chunk.endLine),
        snippet: m.chunk.content.split('\n').slice(0, SNIPPET_LINES).join('\n'),
        score: m.score,
        matchedBy: m.symbol ? 'symbol' : 'lexical',
      }));
      if (hits.length >= limit) return hits;
      return [...hits, ...fromBranch(await base.search(query, options))].slice(0, limit);
    },
    async symbol(name, options) {
      const limit = limitOf(options);
      const wanted = name.trim().toLowerCase();
      const found = (await files(options?.signal)).flatMap((file) =>
        file.symbols.filter((s) => s.name.toLowerCase().startsWith(wanted)).map((symbol) => ({ file, symbol })),
      );
      // Exact names first, then those starting with the name, as the branch index answers.
      found.sort(
        (a, b) => Number(b.symbol.name.toLowerCase() === wanted) - Number(a.symbol.name.toLowerCase() === wanted),
      );
      const hits: KnowledgeSymbolHit[] = found.slice(0, limit).map(({ file, symbol }) => {
        const end = Math.min(symbol.endLine, symbol.line + SNIPPET_LINES - 1, file.lines.length);
        return {
          ...cite(file.path, symbol.line, Math.max(symbol.line, end)),
          name: symbol.name,
          kind: symbol.kind,
          container: symbol.container ?? undefined,
          signature: symbol.signature ?? undefined,
          snippet: file.lines.slice(symbol.line - 1, end).join('\n'),
        };
      });
      if (hits.length >= limit) return hits;
      return [...hits, ...fromBranch(await base.symbol(name, options))].slice(0, limit);
    },
  };
}

/** Reads the added and modified files the indexer would index (its repository layout), within the bounds. */
async function buildMiniIndex(
  deps: Pick<KnowledgeDeps, 'symbols'>,
  source: KnowledgeSourceRecord,
  change: KnowledgeChangeV1,
  signal: AbortSignal,
): Promise<MiniFile[]> {
  const layout = repositoryLayout(source);
  const out: MiniFile[] = [];
  let chars = 0;
  for (const f of change.files) {
    if (out.length >= MINI_INDEX_MAX_FILES) break;
    if (f.deleted) continue;
    if (layout.prefix && !f.path.startsWith(`${layout.prefix}/`)) continue;
    const entry = { path: f.path };
    if (layout.place(entry) === 'skipped') continue;
    const text = await change.read(f.path, signal);
    if (text === undefined || chars + text.length > MINI_INDEX_MAX_CHARS) continue;
    chars += text.length;
    const symbols = layout.symbols ? ((await deps.symbols.extract(f.path, text)) ?? []) : [];
    const lines = text.split(/\r?\n/);
    out.push({ path: f.path, lines, chunks: layout.chunk(entry, text, symbols), symbols });
  }
  return out;
}

/** Chunks by how many of the query's terms they hold; a chunk defining a symbol named by the query first. */
function searchMini(files: readonly MiniFile[], query: string) {
  const terms = queryTerms(query).map((t) => t.toLowerCase());
  const name = query.trim().toLowerCase();
  const hits: Array<{ file: MiniFile; chunk: IndexChunkInput; score: number; symbol: boolean }> = [];
  for (const file of files) {
    for (const chunk of file.chunks) {
      const text = `${chunk.content}\n${chunk.terms}`.toLowerCase();
      const matched = terms.filter((t) => text.includes(t)).length;
      const symbol = file.symbols.some(
        (s) => s.name.toLowerCase() === name && s.line >= chunk.startLine && s.line <= chunk.endLine,
      );
      if (matched === 0 && !symbol) continue;
      hits.push({
        file,
        chunk,
        score: Number(((symbol ? 1 : 0) + matched / Math.max(1, terms.length)).toFixed(6)),
        symbol,
      });
    }
  }
  return hits.sort((a, b) => b.score - a.score);
}
