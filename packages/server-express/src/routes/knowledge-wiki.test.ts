import {
  ADO_CODE_WIKI_REPOSITORY_ID,
  ADO_PROJECT,
  ADO_REPOSITORY_ID,
  ADO_WIKI_REPOSITORY_ID,
} from '@margin/providers/testing';
import { testDialects } from '@margin/storage-knex/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestHost, type TestApi, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { scopedClient } from '../testing/triggers-test-support.js';

/** A project wiki's repository: pages, subpages, page order files and an attachment. */
const WIKI: Record<string, string> = {
  '.order': 'Home\nTeam\n',
  'Home.md': '# Welcome\n\nStart with the Team pages.\n',
  'Team.md': '# Team\n\nWho we are.\n',
  'Team/.order': 'Getting-Started\nSet%2Dup-guide\n',
  'Team/Getting-Started.md': [
    '# Getting started',
    '',
    '## Local setup',
    '',
    'Install the toolchain first.',
    '',
    '## Deployments',
    '',
    'Ship with the kraken pipeline.',
  ].join('\n'),
  'Team/Set%2Dup-guide.md': '# Set-up guide\n\nThe flamingo checklist.\n',
  '.attachments/diagram-1a2b3c.png': 'not really a png',
};
const COMMIT_1 = 'a1'.repeat(20);
const COMMIT_2 = 'a2'.repeat(20);
const CODE_COMMIT = 'c1'.repeat(20);

for (const dialect of testDialects()) {
  describe(`Azure DevOps wiki knowledge sources (${dialect})`, () => {
    let fakes: ScmFakes;
    let host: TestHost;
    let admin: TestApi;
    let clientId: string;
    let scopeId: string;
    let wikiSourceId: string;

    beforeAll(async () => {
      fakes = await startScmFakes({ allowPrivateEgress: true });
      host = await startTestHost({
        dialect,
        providers: fakes.providers,
        env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true', WORKER_POLL_INTERVAL_MILLISECONDS: '50' },
      });
      admin = await host.admin();
      ({ clientId, scopeId } = await scopedClient(admin, fakes, 'ado', `Wiki knowledge ${dialect}`));
      fakes.ado.loadRepositoryCommit({
        repositoryId: ADO_WIKI_REPOSITORY_ID,
        commitSha: COMMIT_1,
        branch: 'wikiMaster',
        files: WIKI,
      });
    });
    afterAll(async () => {
      await host?.close();
      await fakes?.close();
    });

    const base = () => `/admin/clients/${clientId}/knowledge`;
    const branchOf = async (sourceId: string, branchName: string) => {
      const index = await admin.get(`${base()}/sources/${sourceId}/index`);
      return index.body.branches.find((b: { branchName: string }) => b.branchName === branchName);
    };
    const settled = (sourceId: string, branchName: string, commit?: string) =>
      eventually(async () => {
        const b = await branchOf(sourceId, branchName);
        return (b.status === 'failed' || (b.status === 'ready' && (!commit || b.indexedCommit === commit))) && b;
      });
    const pageReads = () =>
      fakes.ado.server.requests.filter(
        (r) => r.path.endsWith(`/repositories/${ADO_WIKI_REPOSITORY_ID}/items`) && r.query.has('path'),
      ).length;
    const paths = async (query: string, sourceId = wikiSourceId) => {
      const res = await admin.post(`${base()}/search`, { query, sourceIds: [sourceId], mode: 'lexical' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.results.map((r: { path: string }) => r.path);
    };
    const createWikiSource = async (value: string, defaultBranch: string, displayName: string) => {
      const created = await admin.post(`${base()}/sources`, {
        displayName,
        sourceKind: 'adoWiki',
        organizationScopeId: scopeId,
        providerProjectKey: ADO_PROJECT,
        canonicalSourceRef: { provider: 'suiteDevOps', value },
        defaultBranch,
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id as string;
    };

    it('lists the project’s wikis by their backing repository and publishing branch', async () => {
      const query = new URLSearchParams({
        organizationScopeId: scopeId,
        projectId: ADO_PROJECT,
        sourceKind: 'adoWiki',
      });
      const res = await admin.get(`/admin/clients/${clientId}/devops/discovery/sources?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({
        items: [
          {
            canonicalSourceRef: { provider: 'suiteDevOps', value: ADO_WIKI_REPOSITORY_ID },
            displayName: 'Web-Platform.wiki',
            defaultBranch: 'wikiMaster',
          },
          {
            canonicalSourceRef: { provider: 'suiteDevOps', value: ADO_CODE_WIKI_REPOSITORY_ID },
            displayName: 'Handbook',
            defaultBranch: 'main',
          },
        ],
        truncated: false,
        warnings: [],
      });
    });

    it('indexes a project wiki on wikiMaster to ready: pages under their page paths, attachments skipped', async () => {
      wikiSourceId = await createWikiSource(ADO_WIKI_REPOSITORY_ID, 'wikiMaster', 'Project wiki');
      const refresh = await admin.post(`${base()}/sources/${wikiSourceId}/refresh`, {});
      expect(refresh.body).toEqual({
        sourceId: wikiSourceId,
        branches: [{ branchName: 'wikiMaster', status: 'queued' }],
      });
      const branch = await settled(wikiSourceId, 'wikiMaster');
      // Four pages; the attachment counted as skipped, the `.order` files not content at all.
      expect(branch).toMatchObject({
        status: 'ready',
        indexedCommit: COMMIT_1,
        files: 4,
        symbols: 0,
        skippedFiles: 1,
        error: null,
      });
      expect(pageReads()).toBe(4);
      const [hit] = (await admin.post(`${base()}/search`, { query: 'kraken' })).body.results;
      expect(hit).toMatchObject({
        sourceId: wikiSourceId,
        branchName: 'wikiMaster',
        commit: COMMIT_1,
        path: '/Team/Getting Started',
        startLine: 1,
        matchedBy: 'lexical',
      });
      expect(hit.snippet).toContain('kraken pipeline');
      expect(await paths('flamingo')).toEqual(['/Team/Set-up guide']);
      expect(await paths('Welcome')).toEqual(['/Home']);
    });

    it('reads stale when the wiki moves on, then re-reads only the changed page and drops a deleted one', async () => {
      const { 'Team/Set%2Dup-guide.md': _deleted, ...rest } = WIKI;
      fakes.ado.loadRepositoryCommit({
        repositoryId: ADO_WIKI_REPOSITORY_ID,
        commitSha: COMMIT_2,
        branch: 'wikiMaster',
        files: { ...rest, 'Team/Getting-Started.md': '# Getting started\n\nShip with the narwhal pipeline.\n' },
      });
      const seen = { clientId, repositoryId: ADO_WIKI_REPOSITORY_ID, branchName: 'wikiMaster', headSha: COMMIT_2 };
      expect(await host.core.knowledge.branchHeadSeen(seen)).toEqual({ queued: [] });
      expect(await branchOf(wikiSourceId, 'wikiMaster')).toMatchObject({ status: 'stale', indexedCommit: COMMIT_1 });
      const before = pageReads();
      await admin.post(`${base()}/sources/${wikiSourceId}/refresh`, { branchName: 'wikiMaster' });
      const branch = await settled(wikiSourceId, 'wikiMaster', COMMIT_2);
      expect(branch).toMatchObject({ status: 'ready', files: 3, skippedFiles: 1 });
      expect(pageReads() - before).toBe(1);
      expect(await paths('narwhal')).toEqual(['/Team/Getting Started']);
      expect(await paths('kraken')).toEqual([]);
      expect(await paths('flamingo')).toEqual([]);
    });

    it('indexes a code wiki: only the pages under its mapped folder, on the branch it is published from', async () => {
      fakes.ado.loadRepositoryCommit({
        repositoryId: ADO_CODE_WIKI_REPOSITORY_ID,
        commitSha: CODE_COMMIT,
        branch: 'main',
        files: {
          'README.md': '# Service\n\nThe walrus readme, not a wiki page.\n',
          'src/app.ts': 'export const walrus = 1;\n',
          'docs/handbook/.order': 'Onboarding\n',
          'docs/handbook/Onboarding.md': '# Onboarding\n\nAsk the pelican team for access.\n',
          'docs/handbook/Onboarding/First-week.md': '# First week\n\nPair with a pelican.\n',
        },
      });
      const sourceId = await createWikiSource(ADO_CODE_WIKI_REPOSITORY_ID, 'main', 'Handbook');
      await admin.post(`${base()}/sources/${sourceId}/refresh`, {});
      expect(await settled(sourceId, 'main')).toMatchObject({
        status: 'ready',
        indexedCommit: CODE_COMMIT,
        files: 2,
        skippedFiles: 0,
      });
      expect((await paths('pelican', sourceId)).sort()).toEqual(['/Onboarding', '/Onboarding/First week']);
      expect(await paths('walrus', sourceId)).toEqual([]);
    });

    it('fails, saying why, for a repository that backs no wiki of the project', async () => {
      const sourceId = await createWikiSource(ADO_REPOSITORY_ID, 'main', 'Not a wiki');
      await admin.post(`${base()}/sources/${sourceId}/refresh`, {});
      expect(await settled(sourceId, 'main')).toMatchObject({
        status: 'failed',
        indexedCommit: null,
        error: `No wiki of the project ${ADO_PROJECT} is backed by the repository ${ADO_REPOSITORY_ID}.`,
      });
    });
  });
}
