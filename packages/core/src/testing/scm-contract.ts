import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangedFile, PullRequestRef, ReviewThread, ScmProviderV1, ScmScopeRef } from '../scm/scm-provider-v1.js';
import { collect, marginErrorOf } from './async-results.js';

/**
 * The canonical pull request every SCM adapter's fake serves, each in its own wire format. The fake
 * must page every list (at most 100 items a page, so the 230 changed files take at least three pages)
 * and keep threads it is sent.
 */
export const SCM_CONTRACT_SCENARIO = {
  pullRequest: {
    number: 42,
    title: 'Add retries to the uploader',
    description: 'Uploads now retry with backoff.',
    sourceBranch: 'feature/retries',
    targetBranch: 'main',
    author: { login: 'ada', displayName: 'Ada Lovelace' },
    headSha: '1111111111111111111111111111111111111111',
    baseSha: '2222222222222222222222222222222222222222',
  },
  /** A second open pull request and a closed one, for listing. */
  otherOpenPullRequest: { number: 43, title: 'Bump dependencies', sourceBranch: 'deps', targetBranch: 'main' },
  closedPullRequest: { number: 44, title: 'Old experiment', sourceBranch: 'experiment', targetBranch: 'main' },
  /** A pull request the fake reports as not existing. */
  missingPullRequestNumber: 404_404,
  branches: ['main', 'feature/retries', 'deps'],
  /** `src/file-000.ts` … `src/file-226.ts` modified, plus one added, one deleted and one renamed: 230. */
  changedFiles: [
    ...Array.from({ length: 227 }, (_, i) => ({
      path: `src/file-${String(i).padStart(3, '0')}.ts`,
      changeType: 'modified' as const,
    })),
    { path: 'docs/new.md', changeType: 'added' as const },
    { path: 'old/legacy.ts', changeType: 'deleted' as const },
    { path: 'src/renamed.ts', previousPath: 'src/original.ts', changeType: 'renamed' as const },
  ] satisfies Array<Pick<ChangedFile, 'path' | 'changeType' | 'previousPath'>>,
  /** Contents of a modified file at base and head; line 2 changed. */
  baseContent: 'export const retries = 0;\nexport const delayMs = 100;\nexport const name = "uploader";\n',
  headContent: 'export const retries = 0;\nexport const delayMs = 250;\nexport const name = "uploader";\n',
  contentPath: 'src/file-000.ts',
  /** One existing inline thread with two comments. */
  existingThread: {
    filePath: 'src/file-001.ts',
    line: 3,
    comments: [
      { author: 'grace', body: 'Should this be configurable?' },
      { author: 'ada', body: 'Good idea, will do.' },
    ],
  },
  /** Users the fake finds for a search of `ad`. */
  users: [{ login: 'ada', displayName: 'Ada Lovelace' }],
} as const;

export interface ScmContractHarness {
  /** Connected to the fake with valid credentials. */
  provider: ScmProviderV1;
  /** Connected to the same fake with credentials it rejects with 401. */
  providerWithBadCredentials: ScmProviderV1;
  /** The secret `providerWithBadCredentials` uses; it must not appear in any error message. */
  badSecret: string;
  /** Scope and project holding the scenario's repository. */
  scope: ScmScopeRef;
  /** The scenario's pull request in this provider's coordinates. */
  ref: PullRequestRef;
  /** Makes the fake answer the next request with a rate-limit response naming a short wait. */
  throttleNext(): void;
  /** Requests the fake has received so far. */
  requestCount(): number;
  close(): Promise<void>;
}

/** Behaviour every `ScmProviderV1` adapter shows against its provider fake. */
export function describeScmProviderContract(name: string, setup: () => Promise<ScmContractHarness>): void {
  const s = SCM_CONTRACT_SCENARIO;
  describe(`SCM provider contract: ${name}`, () => {
    let h: ScmContractHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('verifies working credentials and names the account', async () => {
      const account = await h.provider.verify();
      expect(account.login).toEqual(expect.any(String));
      expect(account.login.length).toBeGreaterThan(0);
    });

    it('reports rejected credentials as a credentials failure without echoing the secret', async () => {
      const error = await marginErrorOf(h.providerWithBadCredentials.verify());
      expect(error.code).toBe('provider_unavailable');
      expect(error.details).toMatchObject({ providerFailure: 'credentials', providerStatus: 401 });
      expect(error.message).not.toContain(h.badSecret);
    });

    it('reads the pull request with its branches, author and newest revision', async () => {
      const pr = await h.provider.getPullRequest(h.ref);
      expect(pr).toMatchObject({
        title: s.pullRequest.title,
        description: s.pullRequest.description,
        status: 'open',
        sourceBranch: s.pullRequest.sourceBranch,
        targetBranch: s.pullRequest.targetBranch,
        author: { login: s.pullRequest.author.login },
        revision: { headSha: s.pullRequest.headSha, baseSha: s.pullRequest.baseSha },
      });
      expect(pr.ref).toMatchObject({ pullRequestId: s.pullRequest.number, repositoryId: h.ref.repositoryId });
    });

    it('answers not_found for a pull request the provider does not have', async () => {
      const error = await marginErrorOf(
        h.provider.getPullRequest({ ...h.ref, pullRequestId: s.missingPullRequestNumber }),
      );
      expect(error.code).toBe('not_found');
    });

    it('lists revisions ending at the newest head', async () => {
      const revisions = await h.provider.listRevisions(h.ref);
      expect(revisions.length).toBeGreaterThan(0);
      expect(revisions.at(-1)?.headSha).toBe(s.pullRequest.headSha);
    });

    it('streams every changed file across all pages with normalised change types', async () => {
      const pr = await h.provider.getPullRequest(h.ref);
      const files = await collect(h.provider.listChangedFiles(h.ref, pr.revision));
      expect(files).toHaveLength(s.changedFiles.length);
      expect(new Set(files.map((f) => f.path)).size).toBe(s.changedFiles.length);
      for (const expected of s.changedFiles) {
        const file = files.find((f) => f.path === expected.path);
        expect(file, expected.path).toMatchObject({ changeType: expected.changeType });
        if ('previousPath' in expected) expect(file?.previousPath).toBe(expected.previousPath);
      }
    });

    it('reads file contents at a commit, and undefined for a path that does not exist', async () => {
      const head = await h.provider.getFileContent(h.ref, s.contentPath, s.pullRequest.headSha);
      expect(head).toMatchObject({ text: s.headContent, isBinary: false });
      const base = await h.provider.getFileContent(h.ref, s.contentPath, s.pullRequest.baseSha);
      expect(base?.text).toBe(s.baseContent);
      expect(await h.provider.getFileContent(h.ref, 'no/such/file.ts', s.pullRequest.headSha)).toBeUndefined();
    });

    it('gives a unified diff of a modified file', async () => {
      const pr = await h.provider.getPullRequest(h.ref);
      const diff = await h.provider.getFileDiff(h.ref, { path: s.contentPath, changeType: 'modified' }, pr.revision);
      expect(diff).toMatch(/^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m);
      expect(diff).toContain('-export const delayMs = 100;');
      expect(diff).toContain('+export const delayMs = 250;');
    });

    it('lists existing threads with their anchor and comments', async () => {
      const threads = await collect(h.provider.listThreads(h.ref));
      const existing = threads.find((t) => t.anchor?.filePath === s.existingThread.filePath);
      expect(existing).toBeDefined();
      expect(existing?.anchor?.endLine).toBe(s.existingThread.line);
      expect(existing?.comments.map((c) => c.body)).toEqual(s.existingThread.comments.map((c) => c.body));
      expect(existing?.comments[0]?.author.login).toBe(s.existingThread.comments[0].author);
    });

    it('creates an inline thread on the new side, replies to it and resolves it', async () => {
      const pr = await h.provider.getPullRequest(h.ref);
      const body = 'Consider capping the backoff delay.';
      const created = await h.provider.createThread(h.ref, {
        body,
        anchor: { filePath: 'src/file-002.ts', startLine: 5, endLine: 6 },
        revision: pr.revision,
      });
      expect(created.threadId).toEqual(expect.any(String));
      await h.provider.reply(h.ref, created.threadId, 'Follow-up detail.');
      await h.provider.setThreadStatus(h.ref, created.threadId, 'resolved');

      const threads = await collect(h.provider.listThreads(h.ref));
      const thread = threads.find((t: ReviewThread) => t.threadId === created.threadId);
      expect(thread?.anchor).toMatchObject({ filePath: 'src/file-002.ts', endLine: 6 });
      expect(thread?.comments.map((c) => c.body)).toEqual([body, 'Follow-up detail.']);
      expect(thread?.status).toBe('resolved');
    });

    it('creates a pull-request-level comment without an anchor', async () => {
      const pr = await h.provider.getPullRequest(h.ref);
      const created = await h.provider.createThread(h.ref, { body: 'Summary: two findings.', revision: pr.revision });
      const threads = await collect(h.provider.listThreads(h.ref));
      const thread = threads.find((t) => t.threadId === created.threadId);
      expect(thread?.anchor).toBeUndefined();
      expect(thread?.comments[0]?.body).toBe('Summary: two findings.');
    });

    it('lists open pull requests of the repository and leaves closed ones out', async () => {
      const open = await collect(h.provider.listOpenPullRequests({ ...h.scope, repositoryId: h.ref.repositoryId }));
      const numbers = open.map((p) => p.ref.pullRequestId).sort((a, b) => a - b);
      expect(numbers).toEqual([s.pullRequest.number, s.otherOpenPullRequest.number]);
      expect(open.find((p) => p.ref.pullRequestId === s.pullRequest.number)?.revision.headSha).toBe(
        s.pullRequest.headSha,
      );
    });

    it('discovers projects, repositories and branches', async () => {
      const projects = await collect(h.provider.listProjects(h.scope.scopePath));
      expect(projects.map((p) => p.projectKey)).toContain(h.scope.projectKey);
      const repositories = await collect(h.provider.listRepositories(h.scope));
      expect(repositories.map((r) => r.repositoryId)).toContain(h.ref.repositoryId);
      const branches = await collect(h.provider.listBranches(h.ref));
      expect(branches).toEqual(expect.arrayContaining([...s.branches]));
    });

    it('searches users', async () => {
      const users = await h.provider.searchUsers(h.scope.scopePath, 'ad');
      expect(users.map((u) => u.login)).toContain(s.users[0].login);
    });

    it('waits out a rate limit and retries', async () => {
      const before = h.requestCount();
      h.throttleNext();
      const pr = await h.provider.getPullRequest(h.ref);
      expect(pr.title).toBe(s.pullRequest.title);
      expect(h.requestCount() - before).toBeGreaterThanOrEqual(2);
    });
  });
}
