import { describe, expect, it } from 'vitest';
import type { IndexBranchStateRecord, IndexedFileInput } from '../../knowledge/index.js';
import { client, knowledgeSource, NOW, type StorageGetter, uuid } from './fixtures.js';

const T = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const COMMIT = 'a'.repeat(40);

const file = (path: string, text: string, symbol?: string): IndexedFileInput => ({
  path,
  blobId: `blob-${path}`,
  chunks: [{ startLine: 1, endLine: 3, content: text, terms: '' }],
  symbols: symbol
    ? [{ name: symbol, kind: 'function', container: null, signature: `function ${symbol}()`, line: 1, endLine: 3 }]
    : [],
});

export function knowledgeIndexStorageContract(storage: StorageGetter): void {
  const newSource = async () => {
    const c = client();
    await storage().clients.insert(c);
    const s = knowledgeSource(c.id);
    await storage().knowledgeSources.insert(s);
    return s;
  };

  describe('knowledge index', () => {
    it('stores branch states, files, chunks and symbols, and replaces a file whole', async () => {
      const s = await newSource();
      const scope = { sourceId: s.id, branchName: 'main' };
      const state: IndexBranchStateRecord = {
        sourceId: s.id,
        branchName: 'main',
        status: 'ready',
        indexedCommit: COMMIT,
        indexedAt: T(1),
        headCommit: COMMIT,
        files: 2,
        chunks: 2,
        symbols: 1,
        skippedFiles: 1,
        error: null,
        embeddingModel: null,
        embeddingDimensions: null,
        updatedAt: T(1),
      };
      await storage().knowledgeIndex.saveBranchState(state);
      await storage().knowledgeIndex.saveBranchState({ ...state, status: 'failed', error: 'boom', updatedAt: T(2) });
      expect(await storage().knowledgeIndex.branchStates(s.id)).toEqual([
        { ...state, status: 'failed', error: 'boom', updatedAt: T(2) },
      ]);
      await storage().knowledgeIndex.writeFiles(scope, COMMIT, [
        file('src/upload.ts', 'export function uploadFile() { return retryUpload(); }', 'uploadFile'),
        file('README.md', 'How uploads work'),
      ]);
      expect(await storage().knowledgeIndex.fileBlobs(scope)).toEqual(
        new Map([
          ['src/upload.ts', 'blob-src/upload.ts'],
          ['README.md', 'blob-README.md'],
        ]),
      );
      expect(await storage().knowledgeIndex.counts(scope)).toEqual({ files: 2, chunks: 2, symbols: 1 });
      // Writing a file again replaces its chunks and symbols rather than adding to them.
      await storage().knowledgeIndex.writeFiles(scope, 'b'.repeat(40), [
        { ...file('src/upload.ts', 'export function sendFile() {}', 'sendFile'), blobId: 'blob-2' },
      ]);
      expect(await storage().knowledgeIndex.counts(scope)).toEqual({ files: 2, chunks: 2, symbols: 1 });
      expect(await storage().knowledgeIndex.findSymbols([scope], 'uploadFile', 5)).toEqual([]);
      expect(await storage().knowledgeIndex.findSymbols([scope], 'sendfile', 5)).toEqual([
        expect.objectContaining({ name: 'sendFile', path: 'src/upload.ts', commit: 'b'.repeat(40), line: 1 }),
      ]);
      await storage().knowledgeIndex.removeFiles(scope, ['README.md']);
      expect(await storage().knowledgeIndex.counts(scope)).toEqual({ files: 1, chunks: 1, symbols: 1 });
    });

    it('writes more chunks and symbols than one insert holds, every one of them', async () => {
      const s = await newSource();
      const scope = { sourceId: s.id, branchName: 'main' };
      // 437 = 2 × 200 + 37: full inserts, then a remainder of an odd length.
      const big: IndexedFileInput = {
        ...file('src/big.ts', 'export const big = 1;'),
        chunks: Array.from({ length: 437 }, (_, i) => ({
          startLine: i + 1,
          endLine: i + 1,
          content: `line ${i}`,
          terms: '',
        })),
        symbols: Array.from({ length: 437 }, (_, i) => ({
          name: `symbol${i}`,
          kind: 'function',
          container: null,
          signature: null,
          line: i + 1,
          endLine: i + 1,
        })),
      };
      await storage().knowledgeIndex.writeFiles(scope, COMMIT, [big, file('src/small.ts', 'small', 'small')]);
      expect(await storage().knowledgeIndex.counts(scope)).toEqual({ files: 2, chunks: 438, symbols: 438 });
      for (const name of ['symbol0', 'symbol399', 'symbol400', 'symbol436', 'small']) {
        expect(await storage().knowledgeIndex.findSymbols([scope], name, 5), name).toEqual([
          expect.objectContaining({ name }),
        ]);
      }
    });

    it('searches words and identifier parts within the scopes asked for only', async () => {
      const s = await newSource();
      const other = await newSource();
      const main = { sourceId: s.id, branchName: 'main' };
      await storage().knowledgeIndex.writeFiles(main, COMMIT, [
        {
          ...file('src/retry.ts', 'export function retryWithBackoff(attempts) { wait(); }'),
          chunks: [
            {
              startLine: 4,
              endLine: 9,
              content: 'export function retryWithBackoff(attempts) { wait(); }',
              terms: 'retry with backoff',
            },
          ],
        },
        file('src/other.ts', 'const unrelated = 1;'),
      ]);
      await storage().knowledgeIndex.writeFiles({ sourceId: other.id, branchName: 'main' }, COMMIT, [
        file('src/retry.ts', 'retry backoff elsewhere'),
      ]);
      const hits = await storage().knowledgeIndex.searchLexical([main], ['backoff'], 5);
      expect(hits).toEqual([
        expect.objectContaining({
          sourceId: s.id,
          branchName: 'main',
          path: 'src/retry.ts',
          commit: COMMIT,
          startLine: 4,
          endLine: 9,
          score: expect.any(Number),
        }),
      ]);
      expect(await storage().knowledgeIndex.searchLexical([main], ['nothing', 'here'], 5)).toEqual([]);
      // Quotes and operators in a term are words, never query syntax.
      expect(await storage().knowledgeIndex.searchLexical([main], ['"OR', 'NEAR(', '*'], 5)).toEqual([]);
      const [byId] = await storage().knowledgeIndex.chunksById([hits[0]?.id ?? 0]);
      expect(byId?.content).toContain('retryWithBackoff');
    });

    it('finds symbols exact first, then by prefix', async () => {
      const s = await newSource();
      const scope = { sourceId: s.id, branchName: 'main' };
      await storage().knowledgeIndex.writeFiles(scope, COMMIT, [
        file('a.ts', 'x', 'parseConfigFile'),
        file('b.ts', 'y', 'parseConfig'),
        file('c.ts', 'z', 'parse_100%'),
      ]);
      const names = (await storage().knowledgeIndex.findSymbols([scope], 'ParseConfig', 5)).map((h) => h.name);
      expect(names).toEqual(['parseConfig', 'parseConfigFile']);
      expect((await storage().knowledgeIndex.findSymbols([scope], 'parse_1', 5)).map((h) => h.name)).toEqual([
        'parse_100%',
      ]);
      // `_` and `%` are characters, not wildcards.
      expect(await storage().knowledgeIndex.findSymbols([scope], 'parse%', 5)).toEqual([]);
    });

    it('keeps Float32 vectors per chunk and hands a branch’s back as one array', async () => {
      const s = await newSource();
      const scope = { sourceId: s.id, branchName: 'main' };
      await storage().knowledgeIndex.writeFiles(scope, COMMIT, [file('a.ts', 'one'), file('b.ts', 'two')]);
      await storage().knowledgeIndex.saveBranchState({
        sourceId: s.id,
        branchName: 'main',
        status: 'ready',
        indexedCommit: COMMIT,
        indexedAt: T(1),
        headCommit: COMMIT,
        files: 2,
        chunks: 2,
        symbols: 0,
        skippedFiles: 0,
        error: null,
        embeddingModel: 'c1/nomic',
        embeddingDimensions: 3,
        updatedAt: T(1),
      });
      const pending = await storage().knowledgeIndex.chunksWithoutEmbedding(scope, 10);
      expect(pending.map((p) => p.path)).toEqual(['a.ts', 'b.ts']);
      await storage().knowledgeIndex.saveEmbeddings([
        { id: pending[0]?.id ?? 0, vector: Float32Array.from([0.5, -1, 2]) },
      ]);
      expect((await storage().knowledgeIndex.chunksWithoutEmbedding(scope, 10)).map((p) => p.path)).toEqual(['b.ts']);
      const loaded = await storage().knowledgeIndex.branchEmbeddings(scope);
      expect(loaded.dimensions).toBe(3);
      expect([...loaded.chunkIds]).toEqual([pending[0]?.id]);
      expect([...loaded.vectors]).toEqual([0.5, -1, 2]);
      await storage().knowledgeIndex.clearEmbeddings(scope);
      expect((await storage().knowledgeIndex.branchEmbeddings(scope)).chunkIds.length).toBe(0);
    });

    it('deleting a source takes its whole index with it', async () => {
      const s = await newSource();
      const scope = { sourceId: s.id, branchName: 'main' };
      await storage().knowledgeIndex.writeFiles(scope, COMMIT, [file('a.ts', 'findme', 'findMe')]);
      await storage().knowledgeIndexJobs.enqueue({
        id: uuid(),
        sourceId: s.id,
        clientId: s.clientId,
        branchName: 'main',
        createdAt: T(1),
      });
      expect(await storage().knowledgeSources.delete(s.id)).toBe(true);
      expect(await storage().knowledgeSources.findById(s.id)).toBeUndefined();
      expect(await storage().knowledgeIndex.counts(scope)).toEqual({ files: 0, chunks: 0, symbols: 0 });
      expect(await storage().knowledgeIndex.searchLexical([scope], ['findme'], 5)).toEqual([]);
      expect(await storage().knowledgeIndexJobs.listForSource(s.id)).toEqual([]);
      expect(await storage().knowledgeSources.delete(s.id)).toBe(false);
    });
  });

  describe('knowledge index jobs', () => {
    it('keeps one active job per branch, leases it to one owner, and runs it again when asked meanwhile', async () => {
      const s = await newSource();
      const ask = (id: string, at: number) =>
        storage().knowledgeIndexJobs.enqueue({
          id,
          sourceId: s.id,
          clientId: s.clientId,
          branchName: 'main',
          createdAt: T(at),
        });
      const first = await ask(uuid(), 1);
      expect(first).toMatchObject({ status: 'queued', attempt: 0, rerunRequested: false });
      expect((await ask(uuid(), 2)).id).toBe(first.id);
      const claim = (owner: string, at: number) =>
        storage().knowledgeIndexJobs.claim({ owner, capacity: 2, now: T(at), leaseExpiresAt: T(at + 60) });
      const [taken] = await claim('host-a', 3);
      expect(taken).toMatchObject({ id: first.id, status: 'running', leaseOwner: 'host-a', attempt: 1 });
      expect(await claim('host-b', 4)).toEqual([]);
      expect(await storage().knowledgeIndexJobs.renew(first.id, 'host-b', T(100))).toBe(false);
      expect(await storage().knowledgeIndexJobs.renew(first.id, 'host-a', T(100))).toBe(true);
      // Asked while running: it is queued again when it ends.
      expect(await ask(uuid(), 5)).toMatchObject({ id: first.id, rerunRequested: true });
      await storage().knowledgeIndexJobs.complete(first.id, 'host-a');
      expect(await storage().knowledgeIndexJobs.listForSource(s.id)).toEqual([
        expect.objectContaining({ id: first.id, status: 'queued', rerunRequested: false, leaseOwner: null }),
      ]);
      await claim('host-a', 6);
      await storage().knowledgeIndexJobs.complete(first.id, 'host-a');
      expect(await storage().knowledgeIndexJobs.listForSource(s.id)).toEqual([]);
    });

    it('hands a crashed host’s job to another once its lease ran out, and takes back a released one', async () => {
      const s = await newSource();
      const job = await storage().knowledgeIndexJobs.enqueue({
        id: uuid(),
        sourceId: s.id,
        clientId: s.clientId,
        branchName: 'main',
        createdAt: T(1),
      });
      await storage().knowledgeIndexJobs.claim({ owner: 'a', capacity: 1, now: T(2), leaseExpiresAt: T(10) });
      const [again] = await storage().knowledgeIndexJobs.claim({
        owner: 'b',
        capacity: 1,
        now: T(11),
        leaseExpiresAt: T(20),
      });
      expect(again).toMatchObject({ id: job.id, leaseOwner: 'b', attempt: 2 });
      // The crashed host's late completion changes nothing.
      await storage().knowledgeIndexJobs.complete(job.id, 'a');
      expect(await storage().knowledgeIndexJobs.listForSource(s.id)).toHaveLength(1);
      await storage().knowledgeIndexJobs.release(job.id, 'b');
      expect(await storage().knowledgeIndexJobs.listForSource(s.id)).toEqual([
        expect.objectContaining({ status: 'queued', leaseOwner: null }),
      ]);
    });
  });
}
