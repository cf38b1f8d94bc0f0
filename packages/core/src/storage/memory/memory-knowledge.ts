import type {
  IndexBranchStateRecord,
  IndexChunkRecord,
  IndexJobRecord,
  IndexScope,
  IndexSymbolRecord,
  KnowledgeIndexJobsRepository,
  KnowledgeIndexRepository,
} from '../../knowledge/index.js';
import { copy, type MemoryState } from './memory-state.js';

/** A stored chunk: the record plus what search needs. */
export interface MemoryChunk extends IndexChunkRecord {
  terms: string;
  embedding: Float32Array | null;
}

export interface MemoryKnowledgeIndex {
  /** Keyed `sourceId NUL branchName`. */
  branches: Map<string, IndexBranchStateRecord>;
  /** Keyed `sourceId NUL branchName NUL path`. */
  files: Map<string, { sourceId: string; branchName: string; path: string; blobId: string | null; commit: string }>;
  chunks: Map<number, MemoryChunk>;
  symbols: Map<number, IndexSymbolRecord>;
  /** Keyed `sourceId NUL branchName`: one active job per branch. */
  jobs: Map<string, IndexJobRecord>;
  nextId: number;
}

export const emptyMemoryKnowledgeIndex = (): MemoryKnowledgeIndex => ({
  branches: new Map(),
  files: new Map(),
  chunks: new Map(),
  symbols: new Map(),
  jobs: new Map(),
  nextId: 1,
});

const key = (scope: IndexScope) => `${scope.sourceId}\0${scope.branchName}`;
const inScope = (scope: IndexScope, row: { sourceId: string; branchName: string }) =>
  row.sourceId === scope.sourceId && row.branchName === scope.branchName;
const inAny = (scopes: readonly IndexScope[], row: { sourceId: string; branchName: string }) =>
  scopes.some((s) => inScope(s, row));
const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];

/** The reference index: lexical search counts matching words, as a plain term-frequency score. */
export function memoryKnowledgeIndex(state: () => MemoryState): KnowledgeIndexRepository {
  const ix = () => state().knowledgeIndex;
  const removePaths = (scope: IndexScope, paths: ReadonlySet<string>) => {
    for (const [id, c] of ix().chunks) if (inScope(scope, c) && paths.has(c.path)) ix().chunks.delete(id);
    for (const [id, s] of ix().symbols) if (inScope(scope, s) && paths.has(s.path)) ix().symbols.delete(id);
    for (const path of paths) ix().files.delete(`${key(scope)}\0${path}`);
  };
  const chunkRecord = ({ terms: _t, embedding: _e, ...record }: MemoryChunk): IndexChunkRecord => copy(record);
  return {
    async branchStates(sourceId) {
      return [...ix().branches.values()]
        .filter((b) => b.sourceId === sourceId)
        .sort((a, b) => a.branchName.localeCompare(b.branchName))
        .map(copy);
    },
    async findBranchState(sourceId, branchName) {
      const found = ix().branches.get(key({ sourceId, branchName }));
      return found && copy(found);
    },
    async saveBranchState(s) {
      ix().branches.set(key(s), copy(s));
    },
    async fileBlobs(scope) {
      const out = new Map<string, string | null>();
      for (const f of ix().files.values()) if (inScope(scope, f)) out.set(f.path, f.blobId);
      return out;
    },
    async writeFiles(scope, commit, files) {
      removePaths(scope, new Set(files.map((f) => f.path)));
      for (const f of files) {
        ix().files.set(`${key(scope)}\0${f.path}`, { ...scope, path: f.path, blobId: f.blobId, commit });
        for (const c of f.chunks) {
          const id = ix().nextId++;
          ix().chunks.set(id, { id, ...scope, path: f.path, commit, ...copy(c), embedding: null });
        }
        for (const s of f.symbols) ix().symbols.set(ix().nextId++, { ...scope, path: f.path, commit, ...copy(s) });
      }
    },
    async removeFiles(scope, paths) {
      removePaths(scope, new Set(paths));
    },
    async counts(scope) {
      const count = (rows: Iterable<{ sourceId: string; branchName: string }>) =>
        [...rows].filter((r) => inScope(scope, r)).length;
      return {
        files: count(ix().files.values()),
        chunks: count(ix().chunks.values()),
        symbols: count(ix().symbols.values()),
      };
    },
    async searchLexical(scopes, terms, limit) {
      const wanted = new Set(terms.map((t) => t.toLowerCase()));
      const hits = [];
      for (const c of ix().chunks.values()) {
        if (!inAny(scopes, c)) continue;
        const score = [...words(c.content), ...words(c.terms)].filter((w) => wanted.has(w)).length;
        if (score > 0) hits.push({ ...chunkRecord(c), score });
      }
      return hits.sort((a, b) => b.score - a.score || a.id - b.id).slice(0, limit);
    },
    async findSymbols(scopes, name, limit) {
      const k = name.toLowerCase();
      if (k === '') return [];
      const exactness = (s: IndexSymbolRecord) => (s.name.toLowerCase() === k ? 0 : 1);
      return [...ix().symbols.values()]
        .filter((s) => inAny(scopes, s) && s.name.toLowerCase().startsWith(k))
        .sort(
          (a, b) =>
            exactness(a) - exactness(b) ||
            a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
            a.path.localeCompare(b.path) ||
            a.line - b.line,
        )
        .slice(0, limit)
        .map(copy);
    },
    async chunksById(ids) {
      return ids.flatMap((id) => {
        const c = ix().chunks.get(id);
        return c ? [chunkRecord(c)] : [];
      });
    },
    async chunkAt(scope, path, line) {
      const found = [...ix().chunks.values()]
        .filter((c) => inScope(scope, c) && c.path === path && c.startLine <= line && c.endLine >= line)
        .sort((a, b) => a.startLine - b.startLine)[0];
      return found && chunkRecord(found);
    },
    async chunksWithoutEmbedding(scope, limit) {
      return [...ix().chunks.values()]
        .filter((c) => inScope(scope, c) && c.embedding === null)
        .sort((a, b) => a.id - b.id)
        .slice(0, limit)
        .map((c) => ({ id: c.id, content: c.content, path: c.path }));
    },
    async saveEmbeddings(vectors) {
      for (const { id, vector } of vectors) {
        const c = ix().chunks.get(id);
        if (c) c.embedding = Float32Array.from(vector);
      }
    },
    async clearEmbeddings(scope) {
      for (const c of ix().chunks.values()) if (inScope(scope, c)) c.embedding = null;
    },
    async branchEmbeddings(scope) {
      const dimensions = ix().branches.get(key(scope))?.embeddingDimensions ?? 0;
      const usable = [...ix().chunks.values()]
        .filter((c) => inScope(scope, c) && dimensions > 0 && c.embedding?.length === dimensions)
        .sort((a, b) => a.id - b.id);
      const vectors = new Float32Array(usable.length * dimensions);
      usable.forEach((c, i) => {
        vectors.set(c.embedding as Float32Array, i * dimensions);
      });
      return { dimensions, chunkIds: Int32Array.from(usable.map((c) => c.id)), vectors };
    },
    async deleteSource(sourceId) {
      deleteIndexOf(state(), sourceId);
    },
  };
}

/** What deleting a source takes with it (the SQL storages' foreign keys cascade). */
export function deleteIndexOf(s: MemoryState, sourceId: string): void {
  const ix = s.knowledgeIndex;
  for (const map of [ix.branches, ix.files, ix.chunks, ix.symbols, ix.jobs] as Array<
    Map<unknown, { sourceId: string }>
  >) {
    for (const [k, row] of map) if (row.sourceId === sourceId) map.delete(k);
  }
}

export function memoryKnowledgeIndexJobs(state: () => MemoryState): KnowledgeIndexJobsRepository {
  const jobs = () => state().knowledgeIndex.jobs;
  return {
    async enqueue(job) {
      const k = key(job);
      const active = jobs().get(k);
      if (active) {
        if (active.status === 'running') active.rerunRequested = true;
        return copy(active);
      }
      const queued: IndexJobRecord = {
        ...job,
        status: 'queued',
        rerunRequested: false,
        leaseOwner: null,
        leaseExpiresAt: null,
        attempt: 0,
      };
      jobs().set(k, queued);
      return copy(queued);
    },
    async claim({ owner, capacity, now, leaseExpiresAt }) {
      if (capacity <= 0) return [];
      const due = [...jobs().values()]
        .filter((j) => j.status === 'queued' || (j.status === 'running' && (j.leaseExpiresAt ?? '') < now))
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
        .slice(0, capacity);
      for (const j of due)
        Object.assign(j, { status: 'running', leaseOwner: owner, leaseExpiresAt, attempt: j.attempt + 1 });
      return due.map(copy);
    },
    async renew(jobId, owner, leaseExpiresAt) {
      const j = [...jobs().values()].find((x) => x.id === jobId && x.leaseOwner === owner && x.status === 'running');
      if (!j) return false;
      j.leaseExpiresAt = leaseExpiresAt;
      return true;
    },
    async complete(jobId, owner) {
      const j = [...jobs().values()].find((x) => x.id === jobId && x.leaseOwner === owner);
      if (!j) return;
      if (j.rerunRequested)
        Object.assign(j, { status: 'queued', rerunRequested: false, leaseOwner: null, leaseExpiresAt: null });
      else jobs().delete(key(j));
    },
    async release(jobId, owner) {
      const j = [...jobs().values()].find((x) => x.id === jobId && x.leaseOwner === owner);
      if (j) Object.assign(j, { status: 'queued', leaseOwner: null, leaseExpiresAt: null });
    },
    async listForSource(sourceId) {
      return [...jobs().values()]
        .filter((j) => j.sourceId === sourceId)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map(copy);
    },
  };
}
