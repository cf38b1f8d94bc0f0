import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { GH_REPOSITORY_ID } from '@margin/providers/testing';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compatibleProfile, EMBEDDING_DIMENSIONS, type FakeOpenAi, startFakeOpenAi } from '../testing/ai-test-kit.js';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { scopedClient } from '../testing/triggers-test-support.js';

/** A small repository: definitions in several languages, a lock file, vendored and binary-ish files. */
const REPOSITORY: Record<string, string> = {
  'src/upload/retry.ts': [
    "import { wait } from '../time';",
    '',
    '/** Sends the request again, waiting longer each time. */',
    'export async function retryWithBackoff(send: () => Promise<void>, attempts = 3) {',
    '  for (let i = 0; i < attempts; i++) {',
    '    try {',
    '      return await send();',
    '    } catch {',
    '      await wait(2 ** i * 100);',
    '    }',
    '  }',
    '}',
    '',
    'export class UploadQueue {',
    '  enqueue(file: string) {',
    '    return file;',
    '  }',
    '}',
  ].join('\n'),
  'src/time.ts': 'export function wait(ms: number) {\n  return new Promise((r) => setTimeout(r, ms));\n}\n',
  'services/billing/invoice.py':
    'class InvoiceRenderer:\n    def render_pdf(self, invoice):\n        return invoice\n\n\ndef total_amount(lines):\n    return sum(lines)\n',
  'cmd/server/main.go':
    'package main\n\ntype Server struct{}\n\nfunc (s *Server) ListenAndServe() error {\n\treturn nil\n}\n\nfunc main() {}\n',
  'docs/architecture.md': '# Architecture\n\nUploads are queued and retried.\n',
  'pnpm-lock.yaml': 'lockfileVersion: 9\n',
  'vendor/lib/thing.js': 'function vendoredThing() {}\n',
  'dist/bundle.min.js': 'function a(){}\n',
};
const COMMIT_1 = '1'.repeat(40);
const COMMIT_2 = '2'.repeat(40);
const COMMIT_3 = '3'.repeat(40);

/**
 * The fake embedding model's notion of meaning: a few concept axes, each lit by its words, so a
 * query can match a passage it shares no word with.
 */
const CONCEPTS = [
  ['retry', 'backoff', 'again', 'failure', 'repeat', 'attempts'],
  ['invoice', 'billing', 'pdf', 'money', 'amount'],
  ['server', 'listen', 'http', 'network'],
];
function meaning(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  const vector = Array.from({ length: EMBEDDING_DIMENSIONS }, () => 0);
  CONCEPTS.forEach((concept, axis) => {
    vector[axis] = words.filter((w) => concept.some((c) => w.includes(c))).length;
  });
  vector[EMBEDDING_DIMENSIONS - 1] = 0.01; // never the zero vector
  return vector;
}

for (const dialect of testDialects()) {
  describe(`the code-knowledge index (${dialect})`, () => {
    let fakes: ScmFakes;
    let ai: FakeOpenAi;
    let host: TestHost;
    let admin: TestApi;
    let clientId: string;
    let sourceId: string;
    let scopeId: string;

    beforeAll(async () => {
      fakes = await startScmFakes({ allowPrivateEgress: true });
      ai = await startFakeOpenAi();
      ai.on('POST', '/v1/embeddings', (request) => {
        const input = ((request.json as { input?: string[] } | undefined)?.input ?? []) as string[];
        return {
          json: {
            object: 'list',
            data: input.map((text, index) => ({ object: 'embedding', index, embedding: meaning(text) })),
            usage: { prompt_tokens: 5 * input.length, total_tokens: 5 * input.length },
          },
        };
      });
      host = await startTestHost({
        dialect,
        providers: fakes.providers,
        env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true', WORKER_POLL_INTERVAL_MILLISECONDS: '50' },
      });
      admin = await host.admin();
      ({ clientId, scopeId } = await scopedClient(admin, fakes, 'github', `Knowledge index ${dialect}`));
      const connection = await admin.post(
        `/clients/${clientId}/ai-connections`,
        compatibleProfile(ai.apiRoot, 'sk-knowledge-index'),
      );
      expect(connection.status, JSON.stringify(connection.body)).toBe(201);
      await admin.post(`/clients/${clientId}/ai-connections/${connection.body.id}/verify`);
      expect((await admin.post(`/clients/${clientId}/ai-connections/${connection.body.id}/activate`)).status).toBe(200);
      fakes.github.loadRepositoryCommit({ commitSha: COMMIT_1, branch: 'main', files: REPOSITORY });
    });
    afterAll(async () => {
      await host?.close();
      await ai?.close();
      await fakes?.close();
    });

    const base = () => `/admin/clients/${clientId}/knowledge`;
    const contentReads = () => fakes.github.server.requests.filter((r) => r.path.includes('/contents/')).length;
    const indexOf = async () => (await admin.get(`${base()}/sources/${sourceId}/index`)).body;
    const refreshed = async (commit: string) =>
      eventually(async () => {
        const index = await indexOf();
        const main = index.branches[0];
        return main.status === 'ready' && main.indexedCommit === commit && main;
      });

    it('indexes a new source to ready, skipping lock, vendored and generated files', async () => {
      const created = await admin.post(`${base()}/sources`, {
        displayName: 'Uploader',
        sourceKind: 'repository',
        organizationScopeId: scopeId,
        providerProjectKey: 'acme',
        canonicalSourceRef: { provider: 'gitHostA', value: GH_REPOSITORY_ID },
        defaultBranch: 'main',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      sourceId = created.body.id;
      expect(await indexOf()).toEqual({
        branches: [
          {
            branchName: 'main',
            status: 'neverIndexed',
            indexedCommit: null,
            indexedAt: null,
            files: 0,
            chunks: 0,
            symbols: 0,
            skippedFiles: 0,
            error: null,
          },
        ],
      });
      const refresh = await admin.post(`${base()}/sources/${sourceId}/refresh`, {});
      expect(refresh.status, JSON.stringify(refresh.body)).toBe(202);
      expect(refresh.body).toEqual({ sourceId, branches: [{ branchName: 'main', status: 'queued' }] });
      const main = await refreshed(COMMIT_1);
      expect(main).toMatchObject({ files: 5, skippedFiles: 3, error: null, indexedAt: expect.any(String) });
      expect(main.symbols).toBeGreaterThanOrEqual(7);
      expect(contentReads()).toBe(5);
    });

    it('finds a definition by name, exact symbols first', async () => {
      const search = await admin.post(`${base()}/search`, { query: 'retryWithBackoff' });
      expect(search.status, JSON.stringify(search.body)).toBe(200);
      expect(search.body.results[0]).toMatchObject({
        sourceId,
        branchName: 'main',
        commit: COMMIT_1,
        path: 'src/upload/retry.ts',
        startLine: 4,
        matchedBy: 'symbol',
      });
      expect(search.body.results[0].snippet).toMatch(/^export async function retryWithBackoff/);
      const symbols = await admin.get(`${base()}/symbols?name=ListenAndServe`);
      expect(symbols.body).toEqual({
        items: [
          {
            sourceId,
            branchName: 'main',
            commit: COMMIT_1,
            path: 'cmd/server/main.go',
            line: 5,
            endLine: 7,
            kind: 'method',
            name: 'ListenAndServe',
            container: 'Server',
            signature: 'func (s *Server) ListenAndServe() error',
          },
        ],
      });
      const prefix = await admin.get(`${base()}/symbols?name=render&sourceIds=${sourceId}`);
      expect(prefix.body.items.map((s: { name: string }) => s.name)).toEqual(['render_pdf']);
      expect(prefix.body.items[0]).toMatchObject({ container: 'InvoiceRenderer', kind: 'method' });
      // Identifier parts: "backoff" alone finds the compound name.
      const lexical = await admin.post(`${base()}/search`, { query: 'backoff', mode: 'lexical' });
      expect(lexical.body.results[0]).toMatchObject({ path: 'src/upload/retry.ts', matchedBy: 'lexical' });
    });

    it('finds code by meaning, sharing no word with it', async () => {
      const res = await admin.post(`${base()}/search`, { query: 'what happens on failure: repeat', mode: 'semantic' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.results[0]).toMatchObject({ path: 'src/upload/retry.ts', matchedBy: 'semantic' });
      const usage = await admin.get(`/admin/clients/${clientId}/token-usage?groupBy=source`);
      expect(usage.body.rows).toEqual([expect.objectContaining({ key: 'knowledge', calls: expect.any(Number) })]);
      // Indexing (one batch) and this query: one ledger event each.
      expect(usage.body.rows[0].calls).toBeGreaterThanOrEqual(2);
      const knowledgeOnly = await admin.get(`${base()}/token-usage?groupBy=purpose`);
      expect(knowledgeOnly.status).toBe(200);
      expect(knowledgeOnly.body).toMatchObject({
        groupBy: 'purpose',
        totals: { calls: usage.body.rows[0].calls },
        rows: [expect.objectContaining({ key: 'embeddingDefault' })],
      });
    });

    it('re-reads only the changed file, and a removed file leaves the index', async () => {
      const before = contentReads();
      const { 'docs/architecture.md': _gone, ...rest } = REPOSITORY;
      fakes.github.loadRepositoryCommit({
        commitSha: COMMIT_2,
        branch: 'main',
        files: { ...rest, 'src/time.ts': 'export function sleepFor(ms: number) {\n  return ms;\n}\n' },
      });
      await admin.post(`${base()}/sources/${sourceId}/refresh`, { branchName: 'main' });
      const main = await refreshed(COMMIT_2);
      expect(contentReads() - before).toBe(1);
      expect(main.files).toBe(4);
      const oldName = await admin.get(`${base()}/symbols?name=wait`);
      expect(oldName.body.items).toEqual([]);
      const newName = await admin.get(`${base()}/symbols?name=sleepFor`);
      expect(newName.body.items[0]).toMatchObject({ path: 'src/time.ts', commit: COMMIT_2 });
      const docs = await admin.post(`${base()}/search`, { query: 'Architecture queued', mode: 'lexical' });
      expect(docs.body.results.map((r: { path: string }) => r.path)).not.toContain('docs/architecture.md');
    });

    it('a failed refresh keeps the last good index serving', async () => {
      const patched = await admin.patch(`${base()}/sources/${sourceId}`, {
        trackedBranches: [{ branchName: 'main' }, { branchName: 'gone' }],
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      await admin.post(`${base()}/sources/${sourceId}/refresh`, { branchName: 'gone' });
      const failed = await eventually(async () => {
        const b = (await indexOf()).branches.find((x: { branchName: string }) => x.branchName === 'gone');
        return b.status === 'failed' && b;
      });
      expect(failed).toMatchObject({ indexedCommit: null, error: 'The branch gone does not exist in the repository.' });
      expect((await indexOf()).branches[0]).toMatchObject({ branchName: 'main', status: 'ready' });
      const stillServing = await admin.post(`${base()}/search`, { query: 'sleepFor' });
      expect(stillServing.body.results[0]).toMatchObject({ path: 'src/time.ts' });
    });

    it('gives reviews lookups only within the job’s snapshotted knowledge scope', async () => {
      const knowledge = host.core.knowledge;
      expect(await knowledge.lookupFor({ clientId, mode: 'none', sourceIds: [sourceId] })).toBeUndefined();
      expect(await knowledge.lookupFor({ clientId, mode: 'selectedSources', sourceIds: ['another'] })).toBeUndefined();
      // Another client's job never reaches this client's source, even by naming it.
      const other = await admin.post('/clients', { displayName: `Other ${dialect}`, tenantId: SYSTEM_TENANT_ID });
      expect(
        await knowledge.lookupFor({ clientId: other.body.id, mode: 'selectedSources', sourceIds: [sourceId] }),
      ).toBeUndefined();
      for (const mode of ['selectedSources', 'allClientSources']) {
        const lookup = await knowledge.lookupFor({ clientId, mode, sourceIds: [sourceId] });
        const [hit] = (await lookup?.search('sleepFor', { limit: 3 })) ?? [];
        expect(hit).toMatchObject({
          sourceId,
          path: 'src/time.ts',
          commit: COMMIT_2,
          startLine: 1,
          matchedBy: 'symbol',
        });
        const [symbol] = (await lookup?.symbol('InvoiceRenderer')) ?? [];
        expect(symbol).toEqual({
          sourceId,
          path: 'services/billing/invoice.py',
          startLine: 1,
          endLine: 3,
          // Unchanged since the first refresh: cited at the commit it was read at, where it is the same.
          commit: COMMIT_1,
          name: 'InvoiceRenderer',
          kind: 'class',
          container: undefined,
          signature: 'class InvoiceRenderer:',
          snippet: 'class InvoiceRenderer:\n    def render_pdf(self, invoice):\n        return invoice',
        });
      }
    });

    it('reads stale when a crawl or review saw the head move, and refreshes itself with branchUpdate', async () => {
      fakes.github.loadRepositoryCommit({ commitSha: COMMIT_3, branch: 'main', files: REPOSITORY });
      const seen = { clientId, repositoryId: GH_REPOSITORY_ID, branchName: 'main', headSha: COMMIT_3 };
      expect(await host.core.knowledge.branchHeadSeen(seen)).toEqual({ queued: [] });
      expect((await indexOf()).branches[0]).toMatchObject({ status: 'stale', indexedCommit: COMMIT_2 });
      await admin.patch(`${base()}/sources/${sourceId}`, {
        trackedBranches: [{ branchName: 'main', refreshTriggerMode: 'branchUpdate' }],
      });
      expect(await host.core.knowledge.branchHeadSeen(seen)).toEqual({ queued: [sourceId] });
      await refreshed(COMMIT_3);
      expect((await admin.get(`${base()}/symbols?name=wait`)).body.items[0]).toMatchObject({ commit: COMMIT_3 });
    });

    it('refuses what a client cannot ask for', async () => {
      expect((await admin.post(`${base()}/search`, { query: '' })).status).toBe(400);
      expect((await admin.post(`${base()}/search`, { query: 'x', limit: 21 })).status).toBe(400);
      expect((await admin.post(`${base()}/search`, { query: 'x', mode: 'fuzzy' })).status).toBe(400);
      const foreign = await admin.post(`${base()}/search`, { query: 'x', sourceIds: ['not-a-source'] });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toMatchObject({ code: 'validation_failed' });
      const untracked = await admin.post(`${base()}/sources/${sourceId}/refresh`, { branchName: 'nope' });
      expect(untracked.status).toBe(400);
      expect((await admin.get(`${base()}/sources/not-a-source/index`)).status).toBe(404);
      expect((await admin.get(`${base()}/symbols`)).status).toBe(400);
    });

    it('deleting the source removes it and its index', async () => {
      expect((await admin.delete(`${base()}/sources/${sourceId}`)).status).toBe(204);
      expect((await admin.get(`${base()}/sources/${sourceId}`)).status).toBe(404);
      expect((await admin.get(`${base()}/sources/${sourceId}/index`)).status).toBe(404);
      expect((await admin.post(`${base()}/search`, { query: 'retryWithBackoff' })).body).toEqual({ results: [] });
      expect((await admin.get(`${base()}/symbols?name=retryWithBackoff`)).body).toEqual({ items: [] });
      const rows = await host.storage.knex('knowledge_index_chunks').count({ n: '*' }).first();
      expect(Number(rows?.n)).toBe(0);
    });
  });
}
