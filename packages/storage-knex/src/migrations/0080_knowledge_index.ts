import type { Knex } from 'knex';
import type { Migration } from './migration.js';

/**
 * The code-knowledge index. Queries served:
 * - a source's branch states (primary key source, branch);
 * - a branch's files with their blob ids (primary key source, branch, path), to refresh only changes;
 * - a branch's chunks and symbols by path, to replace a file (`…_file`), and a branch's vectors
 *   (`knowledge_index_chunks_file` serves it by its prefix);
 * - lexical search: SQLite FTS5 over (content, terms) as an external-content table kept in step by
 *   triggers; PostgreSQL a generated tsvector with a GIN index ('simple': code has no stems);
 * - symbols by lower-cased name, exact or prefix (`knowledge_index_symbols_name`);
 * - index jobs: one per (source, branch) (primary key), claimed oldest first (`knowledge_index_jobs_claim`).
 * Everything goes with its source (foreign keys cascade).
 */
export const knowledgeIndex: Migration = {
  name: '0080_knowledge_index',
  async up(knex: Knex) {
    const postgres = knex.client.config.client === 'pg';
    const source = (t: Knex.CreateTableBuilder) =>
      t.string('source_id', 36).notNullable().references('knowledge_sources.id').onDelete('CASCADE');

    await knex.schema.createTable('knowledge_index_branches', (t) => {
      source(t);
      t.string('branch_name', 300).notNullable();
      t.string('status', 16).notNullable();
      t.string('indexed_commit', 64);
      t.timestamp('indexed_at', { useTz: true });
      t.string('head_commit', 64);
      t.integer('files').notNullable();
      t.integer('chunks').notNullable();
      t.integer('symbols').notNullable();
      t.integer('skipped_files').notNullable();
      t.text('error');
      t.string('embedding_model', 400);
      t.integer('embedding_dimensions');
      t.timestamp('updated_at', { useTz: true }).notNullable();
      t.primary(['source_id', 'branch_name']);
    });

    await knex.schema.createTable('knowledge_index_files', (t) => {
      source(t);
      t.string('branch_name', 300).notNullable();
      t.string('path', 1000).notNullable();
      t.string('blob_id', 64);
      t.string('commit_sha', 64).notNullable();
      t.primary(['source_id', 'branch_name', 'path']);
    });

    await knex.schema.createTable('knowledge_index_chunks', (t) => {
      t.increments('id').primary();
      source(t);
      t.string('branch_name', 300).notNullable();
      t.string('path', 1000).notNullable();
      t.string('commit_sha', 64).notNullable();
      t.integer('start_line').notNullable();
      t.integer('end_line').notNullable();
      t.text('content').notNullable();
      t.text('terms').notNullable();
      // Float32 little-endian, `embedding_dimensions` of the branch long.
      t.binary('embedding');
      t.index(['source_id', 'branch_name', 'path'], 'knowledge_index_chunks_file');
    });

    await knex.schema.createTable('knowledge_index_symbols', (t) => {
      t.increments('id').primary();
      source(t);
      t.string('branch_name', 300).notNullable();
      t.string('path', 1000).notNullable();
      t.string('commit_sha', 64).notNullable();
      t.string('name', 300).notNullable();
      t.string('name_key', 300).notNullable();
      t.string('kind', 32).notNullable();
      t.string('container', 300);
      t.string('signature', 1000);
      t.integer('line').notNullable();
      t.integer('end_line').notNullable();
      t.index(['source_id', 'branch_name', 'path'], 'knowledge_index_symbols_file');
      t.index(['name_key', 'source_id', 'branch_name'], 'knowledge_index_symbols_name');
    });

    await knex.schema.createTable('knowledge_index_jobs', (t) => {
      t.string('id', 36).notNullable().unique();
      source(t);
      t.string('client_id', 36).notNullable();
      t.string('branch_name', 300).notNullable();
      t.string('status', 16).notNullable();
      t.boolean('rerun_requested').notNullable();
      t.string('lease_owner', 100);
      t.timestamp('lease_expires_at', { useTz: true });
      t.integer('attempt').notNullable();
      t.timestamp('created_at', { useTz: true }).notNullable();
      t.primary(['source_id', 'branch_name']);
      t.index(['status', 'created_at'], 'knowledge_index_jobs_claim');
    });

    if (postgres) {
      await knex.raw(
        `alter table knowledge_index_chunks add column search_vector tsvector
           generated always as (to_tsvector('simple', content || ' ' || terms)) stored`,
      );
      await knex.raw('create index knowledge_index_chunks_search on knowledge_index_chunks using gin (search_vector)');
      // Prefix search on names (`like 'x%'`) needs the C collation's ordering.
      await knex.raw(
        'create index knowledge_index_symbols_name_prefix on knowledge_index_symbols (name_key text_pattern_ops)',
      );
    } else {
      await knex.raw(
        `create virtual table knowledge_index_chunks_fts using fts5(
           content, terms, content='knowledge_index_chunks', content_rowid='id', tokenize='unicode61')`,
      );
      await knex.raw(
        `create trigger knowledge_index_chunks_ai after insert on knowledge_index_chunks begin
           insert into knowledge_index_chunks_fts(rowid, content, terms) values (new.id, new.content, new.terms);
         end`,
      );
      await knex.raw(
        `create trigger knowledge_index_chunks_ad after delete on knowledge_index_chunks begin
           insert into knowledge_index_chunks_fts(knowledge_index_chunks_fts, rowid, content, terms)
             values ('delete', old.id, old.content, old.terms);
         end`,
      );
    }
  },
};
