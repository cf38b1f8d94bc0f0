import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTERED_ID_PATTERN } from '../kernel/index.js';
import {
  AUTHENTICATION_KINDS,
  type ChangedFile,
  type CommitStatusState,
  type PullRequestRef,
  type ReviewThread,
  type ScmProviderFamilyV1,
  type ScmProviderV1,
  type ScmScopeRef,
} from '../scm-provider/index.js';
import { collect, marginErrorOf } from './async-results.js';
import type { PullRequestScenario } from './pull-request-scenario.js';

/**
 * The files of the contract repository at the scenario's head commit, for tree listing: 150 under
 * `src/` (so a listing of at most 100 entries a page takes two pages), a nested `docs/` tree, a
 * `docs-site/` sibling that a `docs` prefix must not match, and a root file. Blob ids and sizes are
 * what the fake reports where its provider lists them.
 */
const CONTRACT_TREE_FILES: ReadonlyArray<{ path: string; blobId: string; sizeBytes: number }> = [
  ...Array.from({ length: 150 }, (_, i) => `src/file-${String(i).padStart(3, '0')}.ts`),
  'docs/guide.md',
  'docs/api/intro.md',
  'docs-site/index.md',
  'README.md',
].map((path, i) => ({ path, blobId: (i + 1).toString(16).padStart(40, 'b'), sizeBytes: 100 + i }));

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
  /** Where the fake's branches point; a branch not named here does not exist. */
  branchHeads: {
    main: '2222222222222222222222222222222222222222',
    'feature/retries': '1111111111111111111111111111111111111111',
  },
  missingBranch: 'no/such-branch',
  /**
   * The repository at `pullRequest.headSha` as the fake lists it: these files, the directories
   * holding them, and a submodule at `submodule` that a listing must leave out.
   */
  tree: CONTRACT_TREE_FILES,
  submodule: 'vendor/sdk',
  /** Listing under this prefix finds `docs/guide.md` and `docs/api/intro.md`, never `docs-site/`. */
  treePrefix: 'docs',
} as const;

/**
 * Every directory holding a file of `SCM_CONTRACT_SCENARIO.tree` or its submodule, parents first, for
 * fakes whose provider lists directories too.
 */
export function contractTreeDirectories(): string[] {
  const dirs = new Set<string>();
  for (const path of [...CONTRACT_TREE_FILES.map((f) => f.path), SCM_CONTRACT_SCENARIO.submodule]) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
  }
  return [...dirs].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}

export interface ScmContractHarness {
  /** The family as it is registered; when given, its declared facts are checked too. */
  family?: ScmProviderFamilyV1 | undefined;
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
  /** Serves another pull request from file versions (in the harness's repository), or a push to it. */
  loadPullRequest(scenario: PullRequestScenario): void | Promise<void>;
  /** From now on the fake refuses every new thread anchored in this file, as the provider refuses an invalid position. */
  refuseThreadsOn(path: string): void;
  /** What the fake records of `setCommitStatus`; without it (a plugin's harness) the status cases are skipped. */
  commitStatuses?: CommitStatusProbe | undefined;
  /** `false` where the provider's tree listing carries no blob ids (Bitbucket); they are checked otherwise. */
  treeHasBlobIds?: boolean | undefined;
  close(): Promise<void>;
}

/** A fake's statuses, in the provider's own words, for the contract's `setCommitStatus` cases. */
export interface CommitStatusProbe {
  /** What the fake was sent, oldest first. */
  recorded(): ReadonlyArray<{
    commit: string;
    name: string;
    state: string;
    description: string | undefined;
    targetUrl: string | undefined;
  }>;
  /** Where a status on the scenario pull request's head is recorded: the head SHA, or the provider's own key. */
  target: string;
  /** The provider's word for each of the port's states. */
  wireStates: Record<CommitStatusState, string>;
  /** While true, the fake refuses statuses with 403, as for a token that may comment but not set statuses. */
  refuse(refused: boolean): void;
}

const sha = (digit: string) => digit.repeat(40);

/**
 * A pull request with every kind of change an engine must anchor on: two hunks, a missing final
 * newline, CRLF line ends, an addition, a deletion, a rename with and without edits, and a binary.
 */
export const SCENARIO_PULL_REQUEST: PullRequestScenario = {
  number: 77,
  title: 'Rework the billing totals',
  description: 'Splits tax handling out of the invoice.',
  sourceBranch: 'feature/tax',
  targetBranch: 'main',
  headSha: sha('a'),
  baseSha: sha('b'),
  files: [
    {
      path: 'src/invoice.ts',
      changeType: 'modified',
      oldText: `${Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n')}\n`,
      newText: `${Array.from({ length: 30 }, (_, i) =>
        i === 2 ? 'line 3 changed' : i === 24 ? 'line 25 changed\nline 25b added' : `line ${i + 1}`,
      ).join('\n')}`,
    },
    { path: 'src/windows.ts', changeType: 'modified', oldText: 'a\r\nb\r\nc\r\n', newText: 'a\r\nB\r\nc\r\n' },
    { path: 'src/tax.ts', changeType: 'added', newText: 'export const rate = 0.2;\nexport const name = "vat";\n' },
    { path: 'src/legacy.ts', changeType: 'deleted', oldText: 'export const old = 1;\n' },
    {
      path: 'src/totals.ts',
      previousPath: 'src/sum.ts',
      changeType: 'renamed',
      oldText: 'export const sum = 1;\nexport const count = 2;\n',
      newText: 'export const sum = 1;\nexport const count = 3;\n',
    },
    {
      path: 'src/moved.ts',
      previousPath: 'src/unmoved.ts',
      changeType: 'renamed',
      oldText: 'export const same = true;\n',
      newText: 'export const same = true;\n',
    },
    { path: 'assets/logo.png', changeType: 'modified', oldText: 'PNG-old', newText: 'PNG-new', binary: true },
  ],
  branchFiles: { main: { '.margin/config.yml': 'minimumSeverity: warning\n' } },
};

/** The same pull request after one more push: only `src/tax.ts` changed. */
export const SCENARIO_PUSH: PullRequestScenario = {
  ...SCENARIO_PULL_REQUEST,
  headSha: sha('c'),
  files: SCENARIO_PULL_REQUEST.files.map((f) =>
    f.path === 'src/tax.ts' ? { ...f, newText: 'export const rate = 0.25;\nexport const name = "vat";\n' } : f,
  ),
};

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

    describe('declared facts', () => {
      const family = () => h.family;

      it('declares its id, name, credentials, receiver segment and code-review noun in the shapes core reads', (ctx) => {
        const f = family();
        if (!f) return ctx.skip();
        expect(f.specificationVersion).toBe('v1');
        expect(f.family).toMatch(REGISTERED_ID_PATTERN);
        expect(f.displayName.trim()).not.toBe('');
        expect(f.authenticationKinds.length).toBeGreaterThan(0);
        for (const kind of f.authenticationKinds) expect(AUTHENTICATION_KINDS).toContain(kind);
        // One path segment of /webhooks/v1/providers/<segment>/<pathKey>.
        expect(f.receiverSegment).toMatch(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/);
        expect(['pullRequest', 'mergeRequest']).toContain(f.codeReviewPlatform);
        expect(typeof f.capabilities.repositoriesById).toBe('boolean');
        expect(typeof f.capabilities.wikiSources).toBe('boolean');
        expect(typeof f.webhook.authenticate).toBe('function');
        expect(typeof f.webhook.parse).toBe('function');
      });

      it('reads its own example pull request address, if it declares addresses', (ctx) => {
        const urls = family()?.pullRequestUrls;
        if (!urls) return ctx.skip();
        const url = new URL(urls.example);
        const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
        const address = urls.read(url, segments);
        expect(address).toBeDefined();
        expect(address).not.toHaveProperty('refused');
        expect(address).toMatchObject({
          hostBaseUrl: expect.stringMatching(/^https?:\/\//),
          scopePath: expect.any(String),
          projectKey: expect.any(String),
          repositoryName: expect.any(String),
          repositoryPath: expect.any(String),
        });
        const id = (address as { pullRequestId: number }).pullRequestId;
        expect(Number.isSafeInteger(id) && id > 0).toBe(true);
      });
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
      expect(diff.text).toMatch(/^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m);
      expect(diff.text).toContain('-export const delayMs = 100;');
      expect(diff.text).toContain('+export const delayMs = 250;');
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

    // Before the file-version scenarios, which move the fake's branches.
    describe('branch heads and tree listing (optional members)', () => {
      it('reads where a branch points, and undefined for a branch that does not exist', async (ctx) => {
        const getBranchHead = h.provider.getBranchHead?.bind(h.provider);
        if (!getBranchHead) return ctx.skip();
        for (const [branch, head] of Object.entries(s.branchHeads)) {
          expect(await getBranchHead(h.ref, branch), branch).toBe(head);
        }
        expect(await getBranchHead(h.ref, s.missingBranch)).toBeUndefined();
      });

      it('lists every file at a commit across all pages, without directories or submodules', async (ctx) => {
        const listTree = h.provider.listTree?.bind(h.provider);
        if (!listTree) return ctx.skip();
        const entries = await collect(listTree(h.ref, s.pullRequest.headSha));
        expect(entries.map((e) => e.path).sort()).toEqual(s.tree.map((f) => f.path).sort());
        for (const entry of entries) {
          const expected = s.tree.find((f) => f.path === entry.path);
          if (h.treeHasBlobIds !== false) expect(entry.blobId, entry.path).toBe(expected?.blobId);
          if (entry.sizeBytes !== undefined) expect(entry.sizeBytes, entry.path).toBe(expected?.sizeBytes);
        }
      });

      it('lists only the files under a path prefix, and nothing under a prefix that does not exist', async (ctx) => {
        const listTree = h.provider.listTree?.bind(h.provider);
        if (!listTree) return ctx.skip();
        const docs = await collect(listTree(h.ref, s.pullRequest.headSha, { pathPrefix: s.treePrefix }));
        expect(docs.map((e) => e.path).sort()).toEqual(['docs/api/intro.md', 'docs/guide.md']);
        const slashed = await collect(listTree(h.ref, s.pullRequest.headSha, { pathPrefix: `/${s.treePrefix}/` }));
        expect(slashed.map((e) => e.path).sort()).toEqual(['docs/api/intro.md', 'docs/guide.md']);
        expect(await collect(listTree(h.ref, s.pullRequest.headSha, { pathPrefix: 'no/such/dir' }))).toEqual([]);
      });
    });

    describe('pull requests served from file versions', () => {
      const ref = () => ({ ...h.ref, pullRequestId: SCENARIO_PULL_REQUEST.number });
      const fileOf = (path: string): ChangedFile => {
        const f = SCENARIO_PULL_REQUEST.files.find((x) => x.path === path);
        if (!f) throw new Error(path);
        return { path: f.path, previousPath: f.previousPath, changeType: f.changeType, isBinary: f.binary };
      };
      beforeAll(async () => {
        await h.loadPullRequest(SCENARIO_PULL_REQUEST);
      });

      it('lists every file of the scenario with its change type', async () => {
        const pr = await h.provider.getPullRequest(ref());
        expect(pr.revision.headSha).toBe(SCENARIO_PULL_REQUEST.headSha);
        const files = await collect(h.provider.listChangedFiles(ref(), pr.revision));
        expect(files.map((f) => f.path).sort()).toEqual(SCENARIO_PULL_REQUEST.files.map((f) => f.path).sort());
        expect(files.find((f) => f.path === 'src/totals.ts')).toMatchObject({
          changeType: 'renamed',
          previousPath: 'src/sum.ts',
        });
      });

      it('gives each file a unified diff with git headers and says which lines take comments', async () => {
        const pr = await h.provider.getPullRequest(ref());
        const modified = await h.provider.getFileDiff(ref(), fileOf('src/invoice.ts'), pr.revision);
        expect(modified.text).toMatch(/^--- a\/src\/invoice\.ts\n\+\+\+ b\/src\/invoice\.ts\n/);
        expect(modified.text.match(/^@@ /gm)).toHaveLength(2);
        expect(modified.text).toContain('+line 3 changed');
        expect(modified.text).toContain('\\ No newline at end of file');
        expect(['diffLines', 'anyLine']).toContain(modified.commentable);

        const crlf = await h.provider.getFileDiff(ref(), fileOf('src/windows.ts'), pr.revision);
        expect(crlf.text).toContain('+B');
        const added = await h.provider.getFileDiff(ref(), fileOf('src/tax.ts'), pr.revision);
        expect(added.text).toMatch(/^--- \/dev\/null\n\+\+\+ b\/src\/tax\.ts\n@@ -0,0 \+1,2 @@/);
        const deleted = await h.provider.getFileDiff(ref(), fileOf('src/legacy.ts'), pr.revision);
        expect(deleted.text).toMatch(/^--- a\/src\/legacy\.ts\n\+\+\+ \/dev\/null\n/);
        expect(deleted.text).toContain('-export const old = 1;');
        const renamed = await h.provider.getFileDiff(ref(), fileOf('src/totals.ts'), pr.revision);
        expect(renamed.text).toMatch(/^--- a\/src\/sum\.ts\n\+\+\+ b\/src\/totals\.ts\n/);
        expect(renamed.text).toContain('+export const count = 3;');
        const pureRename = await h.provider.getFileDiff(ref(), fileOf('src/moved.ts'), pr.revision);
        expect(pureRename.text).not.toContain('@@');
        const binary = await h.provider.getFileDiff(ref(), fileOf('assets/logo.png'), pr.revision);
        expect(binary.text).toMatch(/^Binary files /m);
      });

      it('reads a file at the tip of a branch', async () => {
        const config = await h.provider.getFileContent(ref(), '.margin/config.yml', { branch: 'main' });
        expect(config?.text).toBe('minimumSeverity: warning\n');
        expect(await h.provider.getFileContent(ref(), '.margin/none.yml', { branch: 'main' })).toBeUndefined();
      });

      it('compares the heads of two pushes', async () => {
        await h.loadPullRequest(SCENARIO_PUSH);
        const same = await h.provider.compareCommits(ref(), SCENARIO_PUSH.headSha, SCENARIO_PUSH.headSha);
        expect(same.relation).toBe('identical');
        const pushed = await h.provider.compareCommits(ref(), SCENARIO_PULL_REQUEST.headSha, SCENARIO_PUSH.headSha);
        expect(pushed.relation).toBe('ahead');
        expect(pushed.files.map((f) => f.path)).toEqual(['src/tax.ts']);
        const interdiff = await h.provider.getFileDiff(ref(), fileOf('src/tax.ts'), {
          revisionId: SCENARIO_PUSH.headSha,
          headSha: SCENARIO_PUSH.headSha,
          baseSha: SCENARIO_PULL_REQUEST.headSha,
          mergeBaseSha: SCENARIO_PULL_REQUEST.headSha,
        });
        expect(interdiff.text).toContain('-export const rate = 0.2;');
        expect(interdiff.text).toContain('+export const rate = 0.25;');
        const whole = await h.provider.getFileDiff(
          ref(),
          fileOf('src/tax.ts'),
          (await h.provider.getPullRequest(ref())).revision,
        );
        expect(whole.text).not.toContain('-export const rate = 0.2;');
      });

      it('keeps a hidden marker with a thread and out of its body', async () => {
        const pr = await h.provider.getPullRequest(ref());
        const body = 'The tax rate is read before it is validated.';
        const created = await h.provider.createThread(ref(), {
          body,
          anchor: { filePath: 'src/tax.ts', startLine: 1, endLine: 1 },
          revision: pr.revision,
          marker: 'margin:fp=0123456789abcdef',
        });
        const thread = (await collect(h.provider.listThreads(ref()))).find((t) => t.threadId === created.threadId);
        expect(thread?.marker).toBe('margin:fp=0123456789abcdef');
        expect(thread?.comments[0]?.body).toBe(body);
        expect(thread?.authoredByConnection).toBe(true);
        const human = (await collect(h.provider.listThreads(h.ref))).find(
          (t) => t.anchor?.filePath === s.existingThread.filePath,
        );
        expect(human?.marker).toBeUndefined();
        expect(human?.authoredByConnection).not.toBe(true);
      });

      it('posts a batch of inline threads; a refused one does not fail the others', async () => {
        const pr = await h.provider.getPullRequest(ref());
        h.refuseThreadsOn('src/windows.ts');
        const outcomes = await h.provider.createThreads(ref(), {
          revision: pr.revision,
          threads: [
            { body: 'First.', anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 }, marker: 'margin:b1' },
            { body: 'Refused.', anchor: { filePath: 'src/windows.ts', startLine: 2, endLine: 2 }, marker: 'margin:b2' },
            {
              body: 'Range.',
              anchor: { filePath: 'src/invoice.ts', startLine: 25, endLine: 26 },
              marker: 'margin:b3',
            },
          ],
        });
        expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
        const refused = outcomes[1];
        if (refused && !refused.ok) expect(refused.error.code).toEqual(expect.any(String));
        const threads = await collect(h.provider.listThreads(ref()));
        const byMarker = (m: string) => threads.find((t) => t.marker === m);
        expect(byMarker('margin:b1')?.anchor).toMatchObject({ filePath: 'src/invoice.ts', endLine: 3 });
        expect(byMarker('margin:b2')).toBeUndefined();
        expect(byMarker('margin:b3')?.anchor).toMatchObject({ filePath: 'src/invoice.ts', endLine: 26 });
        expect(byMarker('margin:b3')?.comments[0]?.body).toBe('Range.');
      });

      it('anchors a thread on removed lines on the old side', async () => {
        const pr = await h.provider.getPullRequest(ref());
        const created = await h.provider.createThread(ref(), {
          body: 'This removal drops the export other modules import.',
          anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' },
          revision: pr.revision,
        });
        const thread = (await collect(h.provider.listThreads(ref()))).find((t) => t.threadId === created.threadId);
        expect(thread?.anchor).toMatchObject({ filePath: 'src/legacy.ts', endLine: 1, side: 'old' });
      });

      it('edits a comment in place and keeps its marker', async () => {
        const pr = await h.provider.getPullRequest(ref());
        const created = await h.provider.createThread(ref(), {
          body: 'Summary, first run.',
          revision: pr.revision,
          marker: 'margin:summary',
        });
        await h.provider.editComment(ref(), {
          threadId: created.threadId,
          commentId: created.commentId,
          body: 'Summary, second run.',
          marker: 'margin:summary',
        });
        const summaries = (await collect(h.provider.listThreads(ref()))).filter((t) => t.marker === 'margin:summary');
        expect(summaries).toHaveLength(1);
        expect(summaries[0]?.threadId).toBe(created.threadId);
        expect(summaries[0]?.comments[0]?.body).toBe('Summary, second run.');
      });

      it('sends nothing once the signal is aborted', async () => {
        const before = h.requestCount();
        const controller = new AbortController();
        controller.abort();
        await expect(h.provider.getPullRequest(ref(), { signal: controller.signal })).rejects.toBeDefined();
        expect(h.requestCount()).toBe(before);
      });
    });

    describe('commit statuses', () => {
      const probe = () => h.commitStatuses;
      const lastStatuses = (n: number) => probe()?.recorded().slice(-n) ?? [];

      it('sets a status on the head and replaces it under the same name', async (ctx) => {
        const p = probe();
        if (!p || !h.provider.setCommitStatus) return ctx.skip();
        const { revision } = await h.provider.getPullRequest(h.ref);
        const targetUrl = 'https://margin.example.com/clients/c1/reviews/j1';
        await h.provider.setCommitStatus(h.ref, {
          name: 'Margin review',
          state: 'pending',
          description: 'Reviewing',
          targetUrl,
          revision,
        });
        await h.provider.setCommitStatus(h.ref, {
          name: 'Margin review',
          state: 'success',
          description: '3 findings: 1 error, 2 warnings',
          targetUrl,
          revision,
        });
        const [pending, done] = lastStatuses(2);
        expect(pending).toMatchObject({ commit: p.target, name: 'Margin review', state: p.wireStates.pending });
        expect(done).toMatchObject({
          commit: p.target,
          name: 'Margin review',
          state: p.wireStates.success,
          description: '3 findings: 1 error, 2 warnings',
          targetUrl,
        });
      });

      it("says failure and error in the provider's words, in one line it accepts", async (ctx) => {
        const p = probe();
        if (!p || !h.provider.setCommitStatus) return ctx.skip();
        const { revision } = await h.provider.getPullRequest(h.ref);
        const long = `The review failed:\n${'because '.repeat(40)}`;
        await h.provider.setCommitStatus(h.ref, {
          name: 'Margin review',
          state: 'failure',
          description: long,
          revision,
        });
        await h.provider.setCommitStatus(h.ref, {
          name: 'Margin review',
          state: 'error',
          description: 'Held',
          revision,
        });
        const [failure, error] = lastStatuses(2);
        expect(failure?.state).toBe(p.wireStates.failure);
        expect(failure?.description).toMatch(/^The review failed: because/);
        expect(failure?.description).not.toContain('\n');
        expect(failure?.description?.length).toBeLessThanOrEqual(140);
        expect(error?.state).toBe(p.wireStates.error);
      });

      it('refuses a status for a token without the right as provider_unavailable 403', async (ctx) => {
        const p = probe();
        if (!p || !h.provider.setCommitStatus) return ctx.skip();
        const { revision } = await h.provider.getPullRequest(h.ref);
        const before = p.recorded().length;
        p.refuse(true);
        try {
          const error = await marginErrorOf(
            h.provider.setCommitStatus(h.ref, { name: 'Margin review', state: 'pending', description: 'x', revision }),
          );
          expect(error.code).toBe('provider_unavailable');
          expect(error.details).toMatchObject({ providerStatus: 403 });
        } finally {
          p.refuse(false);
        }
        expect(p.recorded()).toHaveLength(before);
      });
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
