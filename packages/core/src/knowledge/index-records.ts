/**
 * The code-knowledge index as stored: per tracked branch of a source, its state, the files indexed
 * (with their blob ids, so a refresh re-reads only what changed), their chunks (with the terms code
 * identifiers split into, for lexical search, and an optional embedding) and their symbols. Index
 * jobs are queued per (source, branch) and leased by one host at a time.
 */

/** What `GET …/index` reports; `neverIndexed` and `stale` are derived, never stored. */
export const INDEX_STATUSES = ['neverIndexed', 'queued', 'indexing', 'ready', 'stale', 'failed'] as const;
export type IndexStatus = (typeof INDEX_STATUSES)[number];
export type StoredIndexStatus = Exclude<IndexStatus, 'neverIndexed' | 'stale'>;

export interface IndexBranchStateRecord {
  sourceId: string;
  branchName: string;
  status: StoredIndexStatus;
  /** The commit the serving index was built from; null until a refresh first succeeds. */
  indexedCommit: string | null;
  indexedAt: string | null;
  /** The branch head the last refresh saw: when it differs from `indexedCommit` the index is stale. */
  headCommit: string | null;
  files: number;
  chunks: number;
  symbols: number;
  skippedFiles: number;
  /** Why the last refresh failed (no secret, no provider body); null after a success. */
  error: string | null;
  /** The embedding model the stored vectors came from (`connectionId/remoteModelId`) and their length. */
  embeddingModel: string | null;
  embeddingDimensions: number | null;
  updatedAt: string;
}

export interface IndexChunkInput {
  startLine: number;
  endLine: number;
  content: string;
  /** Identifier parts (`parseConfig` → `parse config`), space-separated, so lexical search finds them. */
  terms: string;
}

export interface IndexSymbolInput {
  name: string;
  kind: string;
  container: string | null;
  signature: string | null;
  line: number;
  endLine: number;
}

/** One file as the indexer writes it: replaces whatever the index held for its path. */
export interface IndexedFileInput {
  path: string;
  blobId: string | null;
  chunks: IndexChunkInput[];
  symbols: IndexSymbolInput[];
}

/** Where a search looks: one branch of one source. */
export interface IndexScope {
  sourceId: string;
  branchName: string;
}

export interface IndexChunkRecord {
  id: number;
  sourceId: string;
  branchName: string;
  path: string;
  commit: string;
  startLine: number;
  endLine: number;
  content: string;
}

export interface LexicalHit extends IndexChunkRecord {
  /** Higher is better; comparable only within one answer. */
  score: number;
}

export interface IndexSymbolRecord extends IndexSymbolInput {
  sourceId: string;
  branchName: string;
  path: string;
  commit: string;
}

/** A branch's vectors, for in-process cosine: `vectors` holds `chunkIds.length × dimensions` floats. */
export interface BranchEmbeddings {
  dimensions: number;
  chunkIds: Int32Array;
  vectors: Float32Array;
}

export interface KnowledgeIndexRepository {
  /** Every branch state of a source (branches never refreshed have none). */
  branchStates(sourceId: string): Promise<IndexBranchStateRecord[]>;
  findBranchState(sourceId: string, branchName: string): Promise<IndexBranchStateRecord | undefined>;
  /** Inserts or replaces the branch's state. */
  saveBranchState(state: IndexBranchStateRecord): Promise<void>;
  /** Path → blob id of every file indexed on the branch. */
  fileBlobs(scope: IndexScope): Promise<Map<string, string | null>>;
  /** Replaces each file's rows (file, chunks, symbols) with the given ones, at `commit`. */
  writeFiles(scope: IndexScope, commit: string, files: readonly IndexedFileInput[]): Promise<void>;
  /** Removes the files and their chunks and symbols. */
  removeFiles(scope: IndexScope, paths: readonly string[]): Promise<void>;
  /** What the branch holds now. */
  counts(scope: IndexScope): Promise<{ files: number; chunks: number; symbols: number }>;
  /** Full-text search over chunk content and identifier parts: any of `terms`, best first. */
  searchLexical(scopes: readonly IndexScope[], terms: readonly string[], limit: number): Promise<LexicalHit[]>;
  /** Symbols named exactly `name` (case-insensitive), then those starting with it. */
  findSymbols(scopes: readonly IndexScope[], name: string, limit: number): Promise<IndexSymbolRecord[]>;
  chunksById(ids: readonly number[]): Promise<IndexChunkRecord[]>;
  /** The first chunk of the file that holds `line`. */
  chunkAt(scope: IndexScope, path: string, line: number): Promise<IndexChunkRecord | undefined>;
  /** Chunks without a vector yet, oldest first, at most `limit`. */
  chunksWithoutEmbedding(
    scope: IndexScope,
    limit: number,
  ): Promise<Array<{ id: number; content: string; path: string }>>;
  saveEmbeddings(vectors: ReadonlyArray<{ id: number; vector: Float32Array }>): Promise<void>;
  /** Drops every vector of the branch (the embedding model changed). */
  clearEmbeddings(scope: IndexScope): Promise<void>;
  branchEmbeddings(scope: IndexScope): Promise<BranchEmbeddings>;
  /** The whole index of a source, every branch. */
  deleteSource(sourceId: string): Promise<void>;
}

export interface IndexJobRecord {
  id: string;
  sourceId: string;
  clientId: string;
  branchName: string;
  status: 'queued' | 'running';
  /** Asked again while running: the job runs once more when it ends. */
  rerunRequested: boolean;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  attempt: number;
  createdAt: string;
}

export interface KnowledgeIndexJobsRepository {
  /**
   * One active job per (source, branch): queues one, or leaves the queued one as it is, or asks the
   * running one to run again. Answers the job that will do the work.
   */
  enqueue(
    job: Pick<IndexJobRecord, 'id' | 'sourceId' | 'clientId' | 'branchName' | 'createdAt'>,
  ): Promise<IndexJobRecord>;
  /** Leases up to `capacity` queued jobs (or running ones whose lease ran out), oldest first. */
  claim(input: { owner: string; capacity: number; now: string; leaseExpiresAt: string }): Promise<IndexJobRecord[]>;
  /** Extends the lease; false when this owner no longer holds the job. */
  renew(jobId: string, owner: string, leaseExpiresAt: string): Promise<boolean>;
  /** The job ended: gone, or queued again when a rerun was asked for meanwhile. */
  complete(jobId: string, owner: string): Promise<void>;
  /** Gives the job back to the queue (a host stopping). */
  release(jobId: string, owner: string): Promise<void>;
  listForSource(sourceId: string): Promise<IndexJobRecord[]>;
}
