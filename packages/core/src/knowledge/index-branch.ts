import { MarginError } from '../kernel/index.js';
import type { TreeEntry } from '../scm-provider/index.js';
import type { IndexBranchStateRecord, IndexedFileInput, IndexJobRecord, IndexScope } from './index-records.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import type { KnowledgeSourceRecord } from './knowledge-records.js';
import { recordKnowledgeUsage } from './knowledge-usage.js';
import { MAX_INDEXED_FILE_BYTES, type SourceLayout, sourceLayout } from './source-layout.js';
import { openSourceRepository, type SourceRepository } from './source-repository.js';

export { MAX_INDEXED_FILE_BYTES } from './source-layout.js';

/** Contents read at once from the provider. */
const READ_CONCURRENCY = 8;
/** Files written per storage call: bounded memory however large the repository. */
const WRITE_BATCH = 50;
/** Chunks embedded per model call. */
const EMBED_BATCH = 64;
/** Chunk text sent for embedding is cut here (models take ~8k tokens; code runs ~3 characters a token). */
const EMBED_CHARS = 6_000;

export interface IndexRun {
  signal: AbortSignal;
}

export interface IndexOutcome {
  status: 'ready' | 'failed' | 'gone';
  read: number;
  removed: number;
  error?: string | undefined;
}

export const emptyBranchState = (sourceId: string, branchName: string, at: string): IndexBranchStateRecord => ({
  sourceId,
  branchName,
  status: 'queued',
  indexedCommit: null,
  indexedAt: null,
  headCommit: null,
  files: 0,
  chunks: 0,
  symbols: 0,
  skippedFiles: 0,
  error: null,
  embeddingModel: null,
  embeddingDimensions: null,
  updatedAt: at,
});

/**
 * Brings one branch's index up to the branch head: lists the tree under the source's root path,
 * skips binaries, lock files, vendored and generated files (the review engine's rules) and files over
 * 1 MB (a wiki: all but its Markdown pages, see `sourceLayout`), reads only files whose blob id
 * changed (or, without blob ids, those `compareCommits` names), writes them in batches, drops files
 * that left the tree, then embeds new chunks when the client has an `embeddingDefault` model. A failure records `failed` with the reason and leaves the last good
 * index serving.
 */
export async function indexBranch(deps: KnowledgeDeps, job: IndexJobRecord, run: IndexRun): Promise<IndexOutcome> {
  const source = await deps.storage.knowledgeSources.findById(job.sourceId);
  if (!source) return { status: 'gone', read: 0, removed: 0 };
  const scope: IndexScope = { sourceId: source.id, branchName: job.branchName };
  const now = () => deps.clock.now().toISOString();
  const before =
    (await deps.storage.knowledgeIndex.findBranchState(source.id, job.branchName)) ??
    emptyBranchState(source.id, job.branchName, now());
  await deps.storage.knowledgeIndex.saveBranchState({ ...before, status: 'indexing', updatedAt: now() });
  try {
    const outcome = await refresh(deps, source, scope, before, run);
    return { status: 'ready', ...outcome };
  } catch (error) {
    if (run.signal.aborted) {
      // Stopped, not failed: the job goes back to the queue and the state says so.
      await deps.storage.knowledgeIndex.saveBranchState({ ...before, status: 'queued', updatedAt: now() });
      throw error;
    }
    const message = failureMessage(error);
    const latest = (await deps.storage.knowledgeIndex.findBranchState(source.id, job.branchName)) ?? before;
    await deps.storage.knowledgeIndex.saveBranchState({
      ...latest,
      status: 'failed',
      // The serving index is still the last good one: its commit and its counts.
      indexedCommit: before.indexedCommit,
      indexedAt: before.indexedAt,
      error: message,
      updatedAt: now(),
    });
    return { status: 'failed', read: 0, removed: 0, error: message };
  }
}

async function refresh(
  deps: KnowledgeDeps,
  source: KnowledgeSourceRecord,
  scope: IndexScope,
  before: IndexBranchStateRecord,
  run: IndexRun,
): Promise<{ read: number; removed: number }> {
  const repo = await openSourceRepository(deps, source);
  const { provider, ref } = repo;
  if (!provider.getBranchHead || !provider.listTree) {
    throw MarginError.conflict(
      `The ${provider.family} adapter cannot list a repository’s files, so it cannot be indexed.`,
    );
  }
  const signal = run.signal;
  const layout = await sourceLayout(repo, source, scope.branchName, signal);
  const head = await provider.getBranchHead(ref, scope.branchName, { signal });
  if (head === undefined)
    throw MarginError.conflict(`The branch ${scope.branchName} does not exist in the repository.`);
  const now = () => deps.clock.now().toISOString();
  await deps.storage.knowledgeIndex.saveBranchState({
    ...before,
    status: 'indexing',
    headCommit: head,
    updatedAt: now(),
  });

  const known = await deps.storage.knowledgeIndex.fileBlobs(scope);
  // Asked once, and only if the listing turns out to have no blob ids.
  let changed: Promise<Set<string> | undefined> | undefined;
  const changedSince = () => {
    changed ??= changedPathsWithoutBlobIds(repo, before, head, signal);
    return changed;
  };
  const lock = indexLock(scope);
  const seen = new Set<string>();
  let skipped = 0;
  let read = 0;
  const pending: PlacedEntry[] = [];
  const flush = async () => {
    const batch = pending.splice(0, pending.length);
    const files = await readFiles(deps, layout, repo, head, batch, signal);
    read += batch.length;
    skipped += batch.length - files.length;
    const kept = new Set(files.map((f) => f.path));
    for (const e of batch) if (!kept.has(e.path)) seen.delete(e.path);
    // One commit per batch, not one per statement: SQLite syncs every commit to disk, and a file's
    // chunks and symbols are replaced together. The branch's lock keeps PostgreSQL from retrying it.
    await deps.storage.transaction((tx) => tx.knowledgeIndex.writeFiles(scope, head, files), { lock });
  };
  const prefix = layout.prefix;
  for await (const entry of provider.listTree(ref, head, { pathPrefix: prefix || undefined, signal })) {
    const placed = layout.place(entry);
    if (placed === 'ignored') continue;
    if (placed === 'skipped') {
      skipped++;
      continue;
    }
    // Stored and compared under the shown path (a wiki's page path); read under the listed one.
    const { path } = placed;
    seen.add(path);
    if (known.has(path)) {
      if (entry.blobId !== undefined && known.get(path) === entry.blobId) continue;
      if (entry.blobId === undefined) {
        const since = await changedSince();
        if (since !== undefined && !since.has(entry.path)) continue;
      }
    }
    pending.push({ entry, path });
    if (pending.length >= WRITE_BATCH) await flush();
  }
  if (pending.length > 0) await flush();
  const gone = [...known.keys()].filter((path) => !seen.has(path));
  if (gone.length > 0) await deps.storage.transaction((tx) => tx.knowledgeIndex.removeFiles(scope, gone), { lock });

  const embedding = await embedNewChunks(deps, source, scope, before, signal);
  const counts = await deps.storage.knowledgeIndex.counts(scope);
  await deps.storage.knowledgeIndex.saveBranchState({
    ...before,
    status: 'ready',
    indexedCommit: head,
    indexedAt: now(),
    headCommit: head,
    ...counts,
    skippedFiles: skipped,
    error: null,
    ...embedding,
    updatedAt: now(),
  });
  return { read, removed: gone.length };
}

/** A listed file to read, with the path the index shows it under. */
interface PlacedEntry {
  entry: TreeEntry;
  path: string;
}

/** Serializes a branch's index writes on PostgreSQL without serializable retries (one job per branch runs anyway). */
const indexLock = (scope: IndexScope) => `knowledge-index:${scope.sourceId}:${scope.branchName}`;

/**
 * A listing without blob ids (Bitbucket) cannot say what changed: the files `compareCommits` names
 * between the indexed commit and the head, when the head descends from it. `undefined`: read all.
 */
async function changedPathsWithoutBlobIds(
  repo: SourceRepository,
  before: IndexBranchStateRecord,
  head: string,
  signal: AbortSignal,
): Promise<Set<string> | undefined> {
  if (!before.indexedCommit) return undefined;
  if (before.indexedCommit === head) return new Set();
  const comparison = await repo.provider.compareCommits(repo.ref, before.indexedCommit, head, { signal });
  if (comparison.relation !== 'ahead' || comparison.truncation) return undefined;
  return new Set(comparison.files.flatMap((f) => [f.path, ...(f.previousPath ? [f.previousPath] : [])]));
}

/** Reads, chunks and finds the symbols of a batch, `READ_CONCURRENCY` at a time; unreadable and binary files drop out. */
async function readFiles(
  deps: KnowledgeDeps,
  layout: SourceLayout,
  repo: SourceRepository,
  head: string,
  entries: readonly PlacedEntry[],
  signal: AbortSignal,
): Promise<IndexedFileInput[]> {
  const out: IndexedFileInput[] = [];
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const { entry, path } = entries[next++] as PlacedEntry;
      const content = await repo.provider.getFileContent(repo.ref, entry.path, head, { signal });
      if (!content || content.isBinary || content.sizeBytes > MAX_INDEXED_FILE_BYTES) continue;
      const symbols = layout.symbols ? ((await deps.symbols.extract(entry.path, content.text)) ?? []) : [];
      const chunks = layout.chunk(entry, content.text, symbols);
      out.push({ path, blobId: entry.blobId ?? null, chunks, symbols });
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, entries.length) }, worker));
  return out;
}

/**
 * Vectors for chunks that have none, with the client's `embeddingDefault` model (another model than
 * the stored vectors' starts over). Without the purpose mapped, nothing is embedded.
 */
async function embedNewChunks(
  deps: KnowledgeDeps,
  source: KnowledgeSourceRecord,
  scope: IndexScope,
  before: IndexBranchStateRecord,
  signal: AbortSignal,
): Promise<Pick<IndexBranchStateRecord, 'embeddingModel' | 'embeddingDimensions'>> {
  const model = await deps.resolvePurpose(source.clientId, 'embeddingDefault');
  if (!model) return { embeddingModel: before.embeddingModel, embeddingDimensions: before.embeddingDimensions };
  const modelKey = `${model.connectionId}/${model.model.remoteModelId}`;
  let dimensions = before.embeddingDimensions;
  if (before.embeddingModel !== modelKey) {
    await deps.storage.knowledgeIndex.clearEmbeddings(scope);
    dimensions = null;
  }
  for (;;) {
    const batch = await deps.storage.knowledgeIndex.chunksWithoutEmbedding(scope, EMBED_BATCH);
    if (batch.length === 0) break;
    const result = await model.model.embed(
      batch.map((c) => `${c.path}\n${c.content.slice(0, EMBED_CHARS)}`),
      { signal },
    );
    await recordKnowledgeUsage(deps, { clientId: source.clientId, sourceId: source.id, model, usage: result.usage });
    dimensions ??= result.vectors[0]?.length ?? null;
    if (result.vectors.length !== batch.length || result.vectors.some((v) => v.length !== dimensions)) {
      throw MarginError.conflict('The embedding model answered with vectors of the wrong number or length.');
    }
    const vectors = batch.map((c, i) => ({ id: c.id, vector: Float32Array.from(result.vectors[i] ?? []) }));
    // One commit for the batch's vectors, not one per chunk.
    await deps.storage.transaction((tx) => tx.knowledgeIndex.saveEmbeddings(vectors), { lock: indexLock(scope) });
  }
  return { embeddingModel: modelKey, embeddingDimensions: dimensions };
}

/** What the state shows of a failure: Margin's own messages, never a raw provider body. */
function failureMessage(error: unknown): string {
  if (MarginError.isInstance(error)) return error.message;
  return 'Indexing failed unexpectedly; see the server log.';
}
