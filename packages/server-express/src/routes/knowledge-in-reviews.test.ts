import type { PullRequestScenario } from '@margin/core/testing';
import type { FakeChatRequest } from '@margin/providers/testing';
import { GH_REPOSITORY_ID } from '@margin/providers/testing';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/index.js';
import {
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  startReviewHarness,
} from '../testing/review-test-support.js';
import { repoFilter } from '../testing/triggers-test-support.js';

/**
 * Code knowledge in reviews through the stock host: branch heads a crawl or a review sees keep the
 * index honest (`stale`, `branchUpdate` refreshes).
 */
const sha = (c: string) => c.repeat(40);
const REPOSITORY = {
  'src/time.ts': 'export function wait(ms: number) {\n  return new Promise((r) => setTimeout(r, ms));\n}\n',
};

const lines = (n: number, line: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => line(i + 1)).join('\n')}\n`;

function scenario(number: number, baseSha: string): PullRequestScenario {
  const before = (i: number) => `  step(${i});`;
  return {
    number,
    title: 'Wait less',
    description: 'Shorter waits.',
    sourceBranch: `feature/wait-${number}`,
    targetBranch: 'main',
    headSha: sha('a'),
    baseSha,
    files: [
      {
        path: 'src/session.ts',
        changeType: 'modified',
        oldText: lines(30, before),
        newText: lines(30, (i) => (i === 20 ? '  return wait(token);' : before(i))),
      },
    ],
    branchFiles: { main: {} },
  };
}

const toolResultsOf = (request: FakeChatRequest) =>
  request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));

/** A finding on the pull request's changed line that relies on the first knowledge answer. */
const waitFinding = {
  path: 'src/session.ts',
  quote: 'return wait(token);',
  startLine: 20,
  endLine: 20,
  category: 'bug',
  title: 'wait is given a token',
  severity: 'error',
  message: '`wait` takes milliseconds; a token here waits NaN.',
  knowledgeRefs: ['K1'],
};

for (const dialect of testDialects()) {
  describe(`code knowledge in reviews (${dialect})`, () => {
    let h: ReviewHarness;

    beforeAll(async () => {
      h = await startReviewHarness({ dialect, env: { CRAWL_SCHEDULER_INTERVAL_MILLISECONDS: '50' } });
      expect((await h.admin.patch('/admin/licensing', { edition: 'Commercial' })).status).toBe(200);
    });
    afterAll(async () => {
      await h?.close();
    });

    /** A client whose source of the fake repository tracks `branches`, each indexed at its head. */
    async function indexedSource(
      name: string,
      branches: Array<{ branchName: string; refreshTriggerMode?: string; miniIndexEnabled?: boolean }>,
    ) {
      const client = await reviewingClient(h.admin, h.fakes, 'github', h.model, name);
      const base = `/admin/clients/${client.clientId}/knowledge`;
      const created = await h.admin.post(`${base}/sources`, {
        displayName: 'Uploader',
        sourceKind: 'repository',
        organizationScopeId: client.scopeId,
        providerProjectKey: 'acme',
        canonicalSourceRef: { provider: 'gitHostA', value: GH_REPOSITORY_ID },
        defaultBranch: 'main',
        trackedBranches: branches,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const sourceId = created.body.id as string;
      const index = async () =>
        (await h.admin.get(`${base}/sources/${sourceId}/index`)).body.branches as Array<Record<string, unknown>>;
      const branch = async (branchName: string) => (await index()).find((b) => b.branchName === branchName);
      expect((await h.admin.post(`${base}/sources/${sourceId}/refresh`, {})).status).toBe(202);
      await eventually(async () => (await index()).every((b) => b.status === 'ready'));
      return { client, base, sourceId, branch };
    }

    /** Submits a review of the pull request by its coordinates and waits for it to end. */
    async function review(client: { clientId: string; coordinates(n: number): unknown }, number: number) {
      const submitted = await h.admin.post(
        `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
        client.coordinates(number),
      );
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
      return eventually(async () => {
        const res = await h.admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
        return ['queued', 'running'].includes(res.body.status) ? undefined : res.body;
      }, 20_000);
    }

    it('a crawl reads tracked heads: a branchUpdate branch refreshes itself, a manual one reads stale', async () => {
      h.fakes.github.loadRepositoryCommit({ commitSha: sha('1'), branch: 'main', files: REPOSITORY });
      h.fakes.github.loadRepositoryCommit({ commitSha: sha('4'), branch: 'develop', files: REPOSITORY });
      const { client, branch } = await indexedSource(`Crawled knowledge ${dialect}`, [
        { branchName: 'main', refreshTriggerMode: 'branchUpdate' },
        { branchName: 'develop' },
      ]);
      expect(await branch('main')).toMatchObject({ status: 'ready', indexedCommit: sha('1') });
      // Both branches move on; a crawl (whose filter queues no review) lists the repository's pull requests.
      h.fakes.github.loadRepositoryCommit({
        commitSha: sha('2'),
        branch: 'main',
        files: { ...REPOSITORY, 'src/more.ts': 'export function more() {}\n' },
      });
      h.fakes.github.loadRepositoryCommit({ commitSha: sha('5'), branch: 'develop', files: REPOSITORY });
      const config = await h.admin.post('/admin/crawl-configurations', {
        clientId: client.clientId,
        organizationScopeId: client.scopeId,
        providerProjectKey: 'acme',
        crawlIntervalSeconds: 3600,
        repoFilters: [repoFilter('github', ['release/*'])],
      });
      expect(config.status, JSON.stringify(config.body)).toBe(201);
      const crawled = await eventually(async () => {
        const res = await h.admin.get(`/admin/crawl-configurations/${config.body.id}`);
        return res.body.lastCrawledAt !== null && res.body;
      });
      expect(crawled).toMatchObject({ lastCrawlOutcome: 'succeeded', lastCrawlCounts: { queued: 0 } });
      expect(crawled.lastCrawlCounts.pullRequestsSeen).toBeGreaterThan(0);
      const main = await eventually(async () => {
        const b = await branch('main');
        return b?.status === 'ready' && b.indexedCommit === sha('2') && b;
      });
      expect(main).toMatchObject({ files: 2 });
      expect(await branch('develop')).toMatchObject({ status: 'stale', indexedCommit: sha('4') });
    });

    it('a review reads the target branch head: a manual branch reads stale, the review goes on', async () => {
      h.fakes.github.loadRepositoryCommit({ commitSha: sha('1'), branch: 'main', files: REPOSITORY });
      const { client, branch } = await indexedSource(`Reviewed knowledge ${dialect}`, [{ branchName: 'main' }]);
      expect(await branch('main')).toMatchObject({ status: 'ready', indexedCommit: sha('1') });
      const number = 971;
      await h.fakes.github.loadPullRequest(scenario(number, sha('9')));
      h.model.respondWith((request) => (isVerifying(request) ? confirmAll(request) : findingsAnswer()));
      const job = await review(client, number);
      expect(job.status).toBe('completed');
      await eventually(async () => (await branch('main'))?.status === 'stale');
      expect(await branch('main')).toMatchObject({ status: 'stale', indexedCommit: sha('1') });
    });

    it('a review whose snapshotted source was deleted records a memory warning naming it and goes on', async () => {
      h.fakes.github.loadRepositoryCommit({ commitSha: sha('1'), branch: 'main', files: REPOSITORY });
      const { client, base, sourceId } = await indexedSource(`Deleted knowledge ${dialect}`, [{ branchName: 'main' }]);
      const scoped = await h.admin.patch(`/admin/webhook-configurations/${client.webhook.id}`, {
        knowledgeSourceScopeMode: 'selectedSources',
        knowledgeSourceIds: [sourceId],
      });
      expect(scoped.status, JSON.stringify(scoped.body)).toBe(200);
      expect((await h.admin.delete(`${base}/sources/${sourceId}`)).status).toBe(204);
      const number = 972;
      await h.fakes.github.loadPullRequest(scenario(number, sha('1')));
      let offered: string[] = [];
      h.model.respondWith((request) => {
        if (isVerifying(request)) return confirmAll(request);
        offered = request.tools.map((t) => t.name);
        return findingsAnswer();
      });
      const job = await review(client, number);
      expect(job.status).toBe('completed');
      expect(offered).not.toContain('search_knowledge');
      const protocol = await h.admin.get(`/jobs/${job.jobId}/protocol?eventCategory=memory`);
      const warnings = protocol.body.flatMap((p: { events: Array<{ kind: string; name: string; body: unknown }> }) =>
        p.events.filter((e) => e.name.startsWith('knowledge.')),
      );
      expect(warnings).toEqual([
        expect.objectContaining({ kind: 'warning', name: 'knowledge.sourceMissing', body: { sourceIds: [sourceId] } }),
      ]);
    });

    it('keeps a finding’s knowledge citations on the finding remembered across pushes', async () => {
      h.fakes.github.loadRepositoryCommit({ commitSha: sha('1'), branch: 'main', files: REPOSITORY });
      const { client, sourceId } = await indexedSource(`Cited knowledge ${dialect}`, [{ branchName: 'main' }]);
      const number = 973;
      await h.fakes.github.loadPullRequest(scenario(number, sha('1')));
      h.model.respondWith((request) => {
        if (isVerifying(request)) return confirmAll(request);
        if (request.tools.some((t) => t.name === 'get_symbol') && toolResultsOf(request).length === 0) {
          return { toolCalls: [{ name: 'get_symbol', arguments: { name: 'wait' } }] };
        }
        return findingsAnswer(waitFinding);
      });
      const job = await review(client, number);
      expect(job.status).toBe('completed');
      const citation = { sourceId, path: 'src/time.ts', startLine: 1, endLine: 3, commit: sha('1') };
      expect(job.result.findings).toEqual([expect.objectContaining({ citations: [citation] })]);
      const findings = await h.admin.get(`/clients/${client.clientId}/reviewing/findings?pullRequestId=${number}`);
      expect(findings.status, JSON.stringify(findings.body)).toBe(200);
      expect(findings.body.items).toEqual([
        expect.objectContaining({ title: waitFinding.title, state: 'open', citations: [citation] }),
      ]);
    });

    it.each([
      [true, 974],
      [false, 975],
    ])(
      'a pull request’s own definitions answer get_symbol from the mini-index at the head (miniIndexEnabled %s)',
      async (enabled, number) => {
        h.fakes.github.loadRepositoryCommit({ commitSha: sha('1'), branch: 'main', files: REPOSITORY });
        const { client, sourceId } = await indexedSource(`Mini-indexed knowledge ${dialect} ${enabled}`, [
          { branchName: 'main', miniIndexEnabled: enabled },
        ]);
        const head = sha(enabled ? 'e' : 'f');
        const pr = scenario(number, sha('1'));
        await h.fakes.github.loadPullRequest({
          ...pr,
          headSha: head,
          files: [
            ...pr.files,
            {
              path: 'src/backoff.ts',
              changeType: 'added',
              newText: 'export function nextDelay(attempt: number) {\n  return 2 ** attempt * 100;\n}\n',
            },
            // Deleted by the change: the branch's version no longer answers.
            { path: 'src/time.ts', changeType: 'deleted', oldText: REPOSITORY['src/time.ts'] },
          ],
        });
        const asked: string[][] = [];
        h.model.respondWith((request) => {
          if (isVerifying(request)) return confirmAll(request);
          if (request.tools.some((t) => t.name === 'get_symbol') && toolResultsOf(request).length === 0) {
            return {
              toolCalls: [
                { name: 'get_symbol', arguments: { name: 'nextDelay' } },
                { name: 'get_symbol', arguments: { name: 'wait' } },
                { name: 'search_knowledge', arguments: { query: 'nextDelay' } },
              ],
            };
          }
          asked.push(toolResultsOf(request));
          return findingsAnswer();
        });
        const job = await review(client, number);
        expect(job.status).toBe('completed');
        expect(asked.length).toBeGreaterThan(0);
        const protocol = await h.admin.get(`/jobs/${job.jobId}/protocol?eventCategory=tool-call`);
        const calls = protocol.body.flatMap((p: { events: Array<{ name: string; body: Record<string, any> }> }) =>
          p.events.filter((e) => e.name === 'tool.call' && e.body.tool === 'get_symbol').map((e) => e.body),
        );
        const [nextDelay, wait] = calls;
        const searches = protocol.body.flatMap((p: { events: Array<{ name: string; body: Record<string, any> }> }) =>
          p.events.filter((e) => e.name === 'tool.call' && e.body.tool === 'search_knowledge').map((e) => e.body),
        );
        if (enabled) {
          expect(nextDelay).toMatchObject({
            results: 1,
            citations: [{ sourceId, path: 'src/backoff.ts', startLine: 1, endLine: 3, commit: head }],
          });
          // src/time.ts is deleted at the head: its definition in the branch index is hidden.
          expect(wait).toMatchObject({ results: 0 });
          expect(searches[0].citations[0]).toEqual({
            sourceId,
            path: 'src/backoff.ts',
            startLine: 1,
            endLine: 3,
            commit: head,
          });
        } else {
          expect(nextDelay).toMatchObject({ results: 0 });
          expect(searches[0]).toMatchObject({ results: 0 });
          expect(wait).toMatchObject({ results: 1, citations: [expect.objectContaining({ commit: sha('1') })] });
        }
      },
    );
  });
}
