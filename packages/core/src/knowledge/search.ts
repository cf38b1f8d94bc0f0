import type { ResolvedPurpose } from '../ai/index.js';
import { MarginError } from '../kernel/index.js';
import { queryTerms } from './identifier-terms.js';
import type { IndexBranchStateRecord, IndexChunkRecord, IndexScope } from './index-records.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import type { KnowledgeSourceRecord } from './knowledge-records.js';
import { recordKnowledgeUsage } from './knowledge-usage.js';
import { nearestChunks } from './nearest-chunks.js';

export type MatchedBy = 'lexical' | 'semantic' | 'symbol';
export type SearchMode = 'auto' | 'lexical' | 'semantic';

/** A branch whose index serves searches: it has been built at least once. */
export interface ServingBranch {
  source: KnowledgeSourceRecord;
  scope: IndexScope;
  state: IndexBranchStateRecord;
}

export interface SearchHit {
  sourceId: string;
  branchName: string;
  commit: string;
  path: string;
  startLine: number;
  endLine: number;
  score: number;
  snippet: string;
  matchedBy: MatchedBy;
}

/** Lines a snippet shows at most. */
const SNIPPET_LINES = 30;
/** Reciprocal-rank fusion's constant: ranks matter, raw scores of different engines do not compare. */
const RRF_K = 60;

/** The branches among `sources` whose index serves (built at least once, even if the last refresh failed). */
export async function servingBranches(
  deps: Pick<KnowledgeDeps, 'storage'>,
  sources: readonly KnowledgeSourceRecord[],
  branchName: string | undefined,
): Promise<ServingBranch[]> {
  const out: ServingBranch[] = [];
  for (const source of sources) {
    const branch = branchName ?? source.defaultBranch;
    const state = await deps.storage.knowledgeIndex.findBranchState(source.id, branch);
    if (state?.indexedCommit) out.push({ source, scope: { sourceId: source.id, branchName: branch }, state });
  }
  return out;
}

/**
 * Searches the branches: `lexical` by words and identifier parts, `semantic` by cosine over the
 * chunks' vectors, `auto` both plus exact symbol names, fused by rank. `semantic` without an
 * `embeddingDefault` model is a conflict naming the purpose; `auto` then goes without it.
 */
export async function searchBranches(
  deps: KnowledgeDeps,
  clientId: string,
  branches: readonly ServingBranch[],
  input: { query: string; mode: SearchMode; limit: number; signal?: AbortSignal | undefined },
): Promise<SearchHit[]> {
  const { query, mode, limit } = input;
  const scopes = branches.map((b) => b.scope);
  const terms = queryTerms(query);
  const ranked: Array<{ by: MatchedBy; hits: Array<{ chunk: IndexChunkRecord; score: number; focus?: number }> }> = [];

  let model: ResolvedPurpose | undefined;
  if (mode !== 'lexical') {
    model = await deps.resolvePurpose(clientId, 'embeddingDefault');
    if (!model && mode === 'semantic') {
      throw MarginError.conflict(
        'Semantic search needs an embedding model: map the purpose embeddingDefault to a logical model or bind it on an active AI connection.',
        { purpose: 'embeddingDefault' },
      );
    }
  }
  if (scopes.length === 0) return [];

  if (mode !== 'semantic') {
    const lexical = await deps.storage.knowledgeIndex.searchLexical(scopes, terms, limit * 2);
    ranked.push({ by: 'lexical', hits: lexical.map((chunk) => ({ chunk, score: chunk.score })) });
  }
  if (mode === 'auto' && /^[\p{L}\p{N}_$.:#-]{2,300}$/u.test(query.trim())) {
    const name =
      query
        .trim()
        .split(/[.:#]+/)
        .at(-1) ?? '';
    const symbols = (await deps.storage.knowledgeIndex.findSymbols(scopes, name, limit)).filter(
      (s) => s.name.toLowerCase() === name.toLowerCase(),
    );
    const hits = [];
    for (const s of symbols) {
      const chunk = await deps.storage.knowledgeIndex.chunkAt(s, s.path, s.line);
      if (chunk) hits.push({ chunk, score: 1, focus: s.line });
    }
    ranked.push({ by: 'symbol', hits });
  }
  if (model) {
    const semantic = await semanticHits(deps, clientId, branches, model, query, limit * 2, input.signal);
    ranked.push({ by: 'semantic', hits: semantic });
  }

  if (ranked.length === 1) {
    const only = ranked[0] as (typeof ranked)[number];
    return only.hits.slice(0, limit).map((h) => hitOf(h.chunk, h.score, only.by, terms, h.focus));
  }
  // Fused: each list adds 1/(k + rank); a hit is credited to the list that ranked it highest.
  const fused = new Map<
    number,
    { chunk: IndexChunkRecord; score: number; by: MatchedBy; best: number; focus?: number }
  >();
  for (const list of ranked) {
    list.hits.forEach((h, rank) => {
      // An exact definition outranks any passage that merely mentions the name.
      const weight = list.by === 'symbol' ? 2 : 1;
      const add = weight / (RRF_K + rank + 1);
      const known = fused.get(h.chunk.id);
      if (!known) {
        fused.set(h.chunk.id, { chunk: h.chunk, score: add, by: list.by, best: add, focus: h.focus });
        return;
      }
      known.score += add;
      if (add > known.best) Object.assign(known, { by: list.by, best: add, focus: h.focus ?? known.focus });
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.chunk.id - b.chunk.id)
    .slice(0, limit)
    .map((h) => hitOf(h.chunk, Number(h.score.toFixed(6)), h.by, terms, h.focus));
}

async function semanticHits(
  deps: KnowledgeDeps,
  clientId: string,
  branches: readonly ServingBranch[],
  model: ResolvedPurpose,
  query: string,
  limit: number,
  signal: AbortSignal | undefined,
): Promise<Array<{ chunk: IndexChunkRecord; score: number }>> {
  const modelKey = `${model.connectionId}/${model.model.remoteModelId}`;
  // Vectors of another model are not comparable with this query's.
  const usable = branches.filter((b) => b.state.embeddingModel === modelKey && b.state.embeddingDimensions);
  if (usable.length === 0) return [];
  const result = await model.model.embed([query], { signal });
  await recordKnowledgeUsage(deps, { clientId, sourceId: null, model, usage: result.usage });
  const vector = result.vectors[0] ?? [];
  const best: Array<{ chunkId: number; score: number }> = [];
  for (const b of usable) {
    const embeddings = await deps.vectors.get(
      deps.storage.knowledgeIndex,
      b.scope,
      `${b.state.indexedCommit}@${b.state.indexedAt}@${b.state.embeddingModel}`,
    );
    best.push(...nearestChunks(embeddings, vector, limit));
  }
  best.sort((a, b) => b.score - a.score);
  const top = best.slice(0, limit);
  const chunks = new Map(
    (await deps.storage.knowledgeIndex.chunksById(top.map((t) => t.chunkId))).map((c) => [c.id, c]),
  );
  return top.flatMap((t) => {
    const chunk = chunks.get(t.chunkId);
    return chunk ? [{ chunk, score: Number(t.score.toFixed(6)) }] : [];
  });
}

/** A hit cut to at most `SNIPPET_LINES` lines: from the definition (`focus`), else around the first matched word. */
function hitOf(
  chunk: IndexChunkRecord,
  score: number,
  matchedBy: MatchedBy,
  terms: readonly string[],
  focus?: number | undefined,
): SearchHit {
  const lines = chunk.content.split('\n');
  let from = 0;
  if (focus !== undefined) from = Math.max(0, focus - chunk.startLine);
  else if (lines.length > SNIPPET_LINES) {
    const lowered = terms.map((t) => t.toLowerCase());
    const first = lines.findIndex((l) => lowered.some((t) => l.toLowerCase().includes(t)));
    from = Math.max(0, Math.min(first < 0 ? 0 : first - 3, lines.length - SNIPPET_LINES));
  }
  const shown = lines.slice(from, from + SNIPPET_LINES);
  return {
    sourceId: chunk.sourceId,
    branchName: chunk.branchName,
    commit: chunk.commit,
    path: chunk.path,
    startLine: chunk.startLine + from,
    endLine: chunk.startLine + from + shown.length - 1,
    score,
    snippet: shown.join('\n'),
    matchedBy,
  };
}
