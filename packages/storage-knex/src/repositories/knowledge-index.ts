import type {
  IndexBranchStateRecord,
  IndexChunkRecord,
  IndexScope,
  IndexSymbolRecord,
  KnowledgeIndexRepository,
} from '@margin/core/spec';
import { type Dialect, readTime, readTimeOrNull, rowsOf } from '../dialect.js';
import type { Db, Row } from '../rows.js';
import { numberOrNull, textOrNull } from '../rows.js';

/** Rows per insert: well under SQLite's 32,766 bound parameters and PostgreSQL's 65,535. */
const INSERT_BATCH = 200;

const stateFromRow = (row: Row): IndexBranchStateRecord => ({
  sourceId: String(row.source_id),
  branchName: String(row.branch_name),
  status: String(row.status) as IndexBranchStateRecord['status'],
  indexedCommit: textOrNull(row.indexed_commit),
  indexedAt: readTimeOrNull(row.indexed_at),
  headCommit: textOrNull(row.head_commit),
  files: Number(row.files),
  chunks: Number(row.chunks),
  symbols: Number(row.symbols),
  skippedFiles: Number(row.skipped_files),
  error: textOrNull(row.error),
  embeddingModel: textOrNull(row.embedding_model),
  embeddingDimensions: numberOrNull(row.embedding_dimensions),
  updatedAt: readTime(row.updated_at),
});

const chunkFromRow = (row: Row): IndexChunkRecord => ({
  id: Number(row.id),
  sourceId: String(row.source_id),
  branchName: String(row.branch_name),
  path: String(row.path),
  commit: String(row.commit_sha),
  startLine: Number(row.start_line),
  endLine: Number(row.end_line),
  content: String(row.content),
});

const symbolFromRow = (row: Row): IndexSymbolRecord => ({
  sourceId: String(row.source_id),
  branchName: String(row.branch_name),
  path: String(row.path),
  commit: String(row.commit_sha),
  name: String(row.name),
  kind: String(row.kind),
  container: textOrNull(row.container),
  signature: textOrNull(row.signature),
  line: Number(row.line),
  endLine: Number(row.end_line),
});

/** Float32 little-endian bytes, as stored; a copy, so the driver's buffer is never aliased. */
const toBytes = (vector: Float32Array) =>
  Buffer.from(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));

/** `(source_id = ? and branch_name = ?) or …` over the scopes. */
function whereScopes(q: import('knex').Knex.QueryBuilder, scopes: readonly IndexScope[], prefix = '') {
  return q.where((w) => {
    for (const s of scopes) w.orWhere({ [`${prefix}source_id`]: s.sourceId, [`${prefix}branch_name`]: s.branchName });
  });
}

/** The query's terms as an FTS5 expression: each one quoted (no operator survives), any of them. */
const ftsQuery = (terms: readonly string[]) => terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');

/** The same for PostgreSQL's `to_tsquery('simple', …)`: only word characters reach it. */
const tsQuery = (terms: readonly string[]) =>
  terms
    .map((t) => t.toLowerCase().replace(/[^\p{L}\p{N}_]/gu, ''))
    .filter(Boolean)
    .join(' | ');

export function knexKnowledgeIndex(db: Db, dialect: Dialect): KnowledgeIndexRepository {
  const branches = () => db('knowledge_index_branches');
  const files = () => db('knowledge_index_files');
  const chunks = () => db('knowledge_index_chunks');
  const symbols = () => db('knowledge_index_symbols');
  const of = (scope: IndexScope) => ({ source_id: scope.sourceId, branch_name: scope.branchName });

  const insertBatched = async (table: string, rows: Row[]) => {
    for (let i = 0; i < rows.length; ) {
      const left = rows.length - i;
      // SQLite keeps a prepared statement per SQL text, ~140 KB for one of 200 rows: a remainder of
      // any length would prepare (and keep) a statement per length. Powers of two bound them to a few.
      const size = left >= INSERT_BATCH || dialect !== 'sqlite' ? INSERT_BATCH : 2 ** Math.floor(Math.log2(left));
      await db(table).insert(rows.slice(i, i + size));
      i += size;
    }
  };
  const removeRows = async (scope: IndexScope, paths: readonly string[]) => {
    for (let i = 0; i < paths.length; i += INSERT_BATCH) {
      const some = paths.slice(i, i + INSERT_BATCH);
      await chunks().where(of(scope)).whereIn('path', some).delete();
      await symbols().where(of(scope)).whereIn('path', some).delete();
      await files().where(of(scope)).whereIn('path', some).delete();
    }
  };

  return {
    async branchStates(sourceId) {
      return (await branches().where({ source_id: sourceId }).orderBy('branch_name')).map(stateFromRow);
    },
    async findBranchState(sourceId, branchName) {
      const row = await branches().where({ source_id: sourceId, branch_name: branchName }).first();
      return row ? stateFromRow(row) : undefined;
    },
    async saveBranchState(s) {
      await branches()
        .insert({
          source_id: s.sourceId,
          branch_name: s.branchName,
          status: s.status,
          indexed_commit: s.indexedCommit,
          indexed_at: s.indexedAt,
          head_commit: s.headCommit,
          files: s.files,
          chunks: s.chunks,
          symbols: s.symbols,
          skipped_files: s.skippedFiles,
          error: s.error,
          embedding_model: s.embeddingModel,
          embedding_dimensions: s.embeddingDimensions,
          updated_at: s.updatedAt,
        })
        .onConflict(['source_id', 'branch_name'])
        .merge();
    },
    async fileBlobs(scope) {
      const rows = await files().where(of(scope)).select('path', 'blob_id');
      return new Map(rows.map((r: Row) => [String(r.path), textOrNull(r.blob_id)]));
    },
    async writeFiles(scope, commit, written) {
      if (written.length === 0) return;
      await removeRows(
        scope,
        written.map((f) => f.path),
      );
      await insertBatched(
        'knowledge_index_files',
        written.map((f) => ({ ...of(scope), path: f.path, blob_id: f.blobId, commit_sha: commit })),
      );
      await insertBatched(
        'knowledge_index_chunks',
        written.flatMap((f) =>
          f.chunks.map((c) => ({
            ...of(scope),
            path: f.path,
            commit_sha: commit,
            start_line: c.startLine,
            end_line: c.endLine,
            content: c.content,
            terms: c.terms,
          })),
        ),
      );
      await insertBatched(
        'knowledge_index_symbols',
        written.flatMap((f) =>
          f.symbols.map((s) => ({
            ...of(scope),
            path: f.path,
            commit_sha: commit,
            name: s.name,
            name_key: s.name.toLowerCase(),
            kind: s.kind,
            container: s.container,
            signature: s.signature,
            line: s.line,
            end_line: s.endLine,
          })),
        ),
      );
    },
    async removeFiles(scope, paths) {
      await removeRows(scope, paths);
    },
    async counts(scope) {
      const count = async (q: ReturnType<typeof files>) =>
        Number((await q.where(of(scope)).count({ n: '*' }).first())?.n ?? 0);
      return { files: await count(files()), chunks: await count(chunks()), symbols: await count(symbols()) };
    },
    async searchLexical(scopes, terms, limit) {
      if (scopes.length === 0 || terms.length === 0) return [];
      if (dialect === 'postgres') {
        const query = tsQuery(terms);
        if (!query) return [];
        const rows = await whereScopes(
          chunks()
            .select(
              'id',
              'source_id',
              'branch_name',
              'path',
              'commit_sha',
              'start_line',
              'end_line',
              'content',
              db.raw(`ts_rank(search_vector, to_tsquery('simple', ?)) as score`, [query]),
            )
            .whereRaw(`search_vector @@ to_tsquery('simple', ?)`, [query]),
          scopes,
        )
          .orderBy('score', 'desc')
          .orderBy('id')
          .limit(limit);
        return rows.map((r: Row) => ({ ...chunkFromRow(r), score: Number(r.score) }));
      }
      // bm25 is lower for better matches; negated so that higher is better on both dialects.
      const scopeSql = scopes.map(() => '(c.source_id = ? and c.branch_name = ?)').join(' or ');
      const result = await db.raw(
        `select c.id, c.source_id, c.branch_name, c.path, c.commit_sha, c.start_line, c.end_line, c.content,
                -bm25(knowledge_index_chunks_fts) as score
           from knowledge_index_chunks_fts join knowledge_index_chunks c on c.id = knowledge_index_chunks_fts.rowid
          where knowledge_index_chunks_fts match ? and (${scopeSql})
          order by bm25(knowledge_index_chunks_fts), c.id limit ?`,
        [ftsQuery(terms), ...scopes.flatMap((s) => [s.sourceId, s.branchName]), limit],
      );
      return rowsOf(result, dialect).map((r) => ({ ...chunkFromRow(r), score: Number(r.score) }));
    },
    async findSymbols(scopes, name, limit) {
      if (scopes.length === 0 || name === '') return [];
      const key = name.toLowerCase();
      const escaped = key.replace(/[\\%_]/g, (c) => `\\${c}`);
      const rows = await whereScopes(
        symbols()
          .where((w) => w.where('name_key', key).orWhereRaw(`name_key like ? escape '\\'`, [`${escaped}%`]))
          .select('*', db.raw('case when name_key = ? then 0 else 1 end as exactness', [key])),
        scopes,
      )
        .orderBy('exactness')
        .orderBy('name_key')
        .orderBy('path')
        .orderBy('line')
        .limit(limit);
      return rows.map(symbolFromRow);
    },
    async chunksById(ids) {
      if (ids.length === 0) return [];
      const rows = await chunks()
        .whereIn('id', [...ids])
        .select('id', 'source_id', 'branch_name', 'path', 'commit_sha', 'start_line', 'end_line', 'content');
      return rows.map(chunkFromRow);
    },
    async chunkAt(scope, path, line) {
      const row = await chunks()
        .where({ ...of(scope), path })
        .where('start_line', '<=', line)
        .where('end_line', '>=', line)
        .orderBy('start_line')
        .first('id', 'source_id', 'branch_name', 'path', 'commit_sha', 'start_line', 'end_line', 'content');
      return row ? chunkFromRow(row) : undefined;
    },
    async chunksWithoutEmbedding(scope, limit) {
      const rows = await chunks()
        .where(of(scope))
        .whereNull('embedding')
        .orderBy('id')
        .limit(limit)
        .select('id', 'content', 'path');
      return rows.map((r: Row) => ({ id: Number(r.id), content: String(r.content), path: String(r.path) }));
    },
    async saveEmbeddings(vectors) {
      for (const { id, vector } of vectors)
        await chunks()
          .where({ id })
          .update({ embedding: toBytes(vector) });
    },
    async clearEmbeddings(scope) {
      await chunks().where(of(scope)).whereNotNull('embedding').update({ embedding: null });
    },
    async branchEmbeddings(scope) {
      const state = await branches().where(of(scope)).first();
      const dimensions = Number(state?.embedding_dimensions ?? 0);
      const rows = await chunks().where(of(scope)).whereNotNull('embedding').orderBy('id').select('id', 'embedding');
      const usable = rows.filter((r: Row) => dimensions > 0 && (r.embedding as Buffer).byteLength === dimensions * 4);
      const chunkIds = new Int32Array(usable.length);
      const vectors = new Float32Array(usable.length * dimensions);
      usable.forEach((r: Row, i: number) => {
        chunkIds[i] = Number(r.id);
        const bytes = r.embedding as Buffer;
        vectors.set(
          new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)),
          i * dimensions,
        );
      });
      return { dimensions, chunkIds, vectors };
    },
    async deleteSource(sourceId) {
      // Chunks first: on SQLite each deleted chunk also leaves the full-text index (trigger).
      await chunks().where({ source_id: sourceId }).delete();
      await symbols().where({ source_id: sourceId }).delete();
      await files().where({ source_id: sourceId }).delete();
      await branches().where({ source_id: sourceId }).delete();
      await db('knowledge_index_jobs').where({ source_id: sourceId }).delete();
    },
  };
}
