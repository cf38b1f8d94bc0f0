import type { PullRequestRef, ScmConnectionConfig } from '@margin/core/spec';
import {
  collect,
  marginErrorOf,
  SCM_CONTRACT_SCENARIO as S,
  SCENARIO_PULL_REQUEST,
  SCENARIO_PUSH,
} from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createForgejoFamily, FORGEJO_FAMILY } from './forgejo-family.js';
import type { ForgejoOptions } from './forgejo-options.js';
import { FJ_OWNER, FJ_REPOSITORY_ID, type ForgejoFake, startForgejoFake } from './testing/forgejo-fake.js';

const TOKEN = 'fj-unit-token-a1b2c3d4e5f60718293a4b5c';

describe('the Forgejo adapter on the wire', () => {
  let fake: ForgejoFake;
  const connect = (options: ForgejoOptions = {}, secret = TOKEN) =>
    createForgejoFamily({ backoffBaseMs: 1, ...options }).connect(connection(secret));
  const connection = (secret: string): ScmConnectionConfig => ({
    family: FORGEJO_FAMILY,
    authenticationKind: 'personalAccessToken',
    hostBaseUrl: fake.hostUrl,
    secret,
  });
  const scope = () => ({ scopePath: `${fake.hostUrl}/${FJ_OWNER}`, projectKey: FJ_OWNER });
  const ref = (pullRequestId: number = S.pullRequest.number): PullRequestRef => ({
    ...scope(),
    repositoryId: FJ_REPOSITORY_ID,
    pullRequestId,
  });
  const seen = (method: string, pattern: RegExp) =>
    fake.requests.filter((r) => r.method === method && pattern.test(r.path));

  describe('against Gitea', () => {
    beforeEach(async () => {
      fake = await startForgejoFake({ token: TOKEN, flavour: 'gitea' });
    });
    afterEach(() => fake.close());

    it('authenticates with `Authorization: token <PAT>` under /api/v1', async () => {
      await connect().verify();
      expect(fake.requests[0]?.headers.authorization).toBe(`token ${TOKEN}`);
      expect(fake.requests[0]?.path).toBe('/user');
    });

    it('pages changed files by page and limit until X-HasMore says no, never following Link', async () => {
      const provider = connect();
      const pr = await provider.getPullRequest(ref());
      const files = await collect(provider.listChangedFiles(ref(), pr.revision));
      expect(files).toHaveLength(S.changedFiles.length);
      const pages = seen('GET', /\/pulls\/42\/files$/);
      expect(pages.map((r) => r.query.get('page'))).toEqual(['1', '2', '3', '4', '5']);
      expect(pages.every((r) => r.query.get('limit') === '50')).toBe(true);
      expect(files.find((f) => f.path === 'src/file-000.ts')).toMatchObject({
        changeType: 'modified',
        rawChangeType: 'changed',
      });
    });

    it('reads the whole pull request diff once per head and cuts it per file', async () => {
      const provider = connect();
      fake.loadPullRequest(SCENARIO_PULL_REQUEST);
      const pr = await provider.getPullRequest(ref(77));
      const files = await collect(provider.listChangedFiles(ref(77), pr.revision));
      // Forgejo counts no lines in a binary file and calls it unchanged; it is still a change.
      expect(files.find((f) => f.path === 'assets/logo.png')).toMatchObject({
        changeType: 'modified',
        rawChangeType: 'unchanged',
      });
      for (const file of files) await provider.getFileDiff(ref(77), file, pr.revision);
      expect(seen('GET', /\/pulls\/77\.diff$/)).toHaveLength(1);
      expect(seen('GET', /\/contents\//)).toHaveLength(0);
      const binary = await provider.getFileDiff(
        ref(77),
        { path: 'assets/logo.png', changeType: 'modified' },
        pr.revision,
      );
      expect(binary.text).toBe('Binary files a/assets/logo.png and b/assets/logo.png differ\n');
    });

    it('diffs two pushes from both file versions, as Forgejo has no diff between them', async () => {
      const provider = connect();
      fake.loadPullRequest(SCENARIO_PULL_REQUEST);
      fake.loadPullRequest(SCENARIO_PUSH);
      const interdiff = await provider.getFileDiff(
        ref(77),
        { path: 'src/tax.ts', changeType: 'modified' },
        {
          revisionId: 'c',
          headSha: SCENARIO_PUSH.headSha,
          baseSha: SCENARIO_PULL_REQUEST.headSha,
          mergeBaseSha: SCENARIO_PULL_REQUEST.headSha,
        },
      );
      expect(interdiff.text).toBe(
        '--- a/src/tax.ts\n+++ b/src/tax.ts\n@@ -1,2 +1,2 @@\n-export const rate = 0.2;\n+export const rate = 0.25;\n export const name = "vat";\n',
      );
      expect(seen('GET', /\/contents\/src\/tax\.ts$/).map((r) => r.query.get('ref'))).toEqual(
        expect.arrayContaining([SCENARIO_PULL_REQUEST.headSha, SCENARIO_PUSH.headSha]),
      );
    });

    it('tells a force push from an ordinary one', async () => {
      const provider = connect();
      fake.loadPullRequest(SCENARIO_PULL_REQUEST);
      const rewritten = { ...SCENARIO_PUSH, headSha: 'd'.repeat(40), relationToPreviousHead: 'diverged' as const };
      fake.loadPullRequest(rewritten);
      const comparison = await provider.compareCommits(ref(77), SCENARIO_PULL_REQUEST.headSha, rewritten.headSha);
      expect(comparison.relation).toBe('diverged');
      const back = await provider.compareCommits(ref(77), rewritten.headSha, SCENARIO_PULL_REQUEST.baseSha);
      expect(back.relation).toBe('behind');
      const gone = await provider.compareCommits(ref(77), 'e'.repeat(40), rewritten.headSha);
      expect(gone).toEqual({ relation: 'unknown', files: [] });
    });

    it('lists revisions oldest first, whatever order Forgejo sends the commits in', async () => {
      const revisions = await connect().listRevisions(ref());
      expect(revisions.map((r) => r.headSha)).toEqual(['4'.repeat(40), S.pullRequest.headSha]);
      expect(revisions[0]).toMatchObject({ baseSha: S.pullRequest.baseSha, mergeBaseSha: '3'.repeat(40) });
    });

    it('posts inline threads as one COMMENT review with the marker hidden in the body', async () => {
      const provider = connect();
      fake.loadPullRequest(SCENARIO_PULL_REQUEST);
      const pr = await provider.getPullRequest(ref(77));
      const outcomes = await provider.createThreads(ref(77), {
        revision: pr.revision,
        threads: [
          {
            body: 'On the new side.',
            anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 },
            marker: 'margin:n',
          },
          { body: 'On the old side.', anchor: { filePath: 'src/legacy.ts', startLine: 1, endLine: 1, side: 'old' } },
        ],
      });
      expect(outcomes.map((o) => o.ok)).toEqual([true, true]);
      const posts = fake.writes.filter((w) => w.method === 'POST' && w.path.endsWith('/pulls/77/reviews'));
      expect(posts).toHaveLength(1);
      expect(posts[0]?.body).toEqual({
        commit_id: SCENARIO_PULL_REQUEST.headSha,
        event: 'COMMENT',
        body: '',
        comments: [
          {
            path: 'src/invoice.ts',
            body: 'On the new side.\n\n<!-- margin-marker:margin:n -->',
            new_position: 3,
            old_position: 0,
          },
          { path: 'src/legacy.ts', body: 'On the old side.', old_position: 1, new_position: 0 },
        ],
      });
    });

    it('deletes the draft Forgejo keeps of a refused review, so no comment is posted twice', async () => {
      const provider = connect();
      fake.loadPullRequest(SCENARIO_PULL_REQUEST);
      fake.refuseThreadsOn('src/windows.ts');
      const pr = await provider.getPullRequest(ref(77));
      const outcomes = await provider.createThreads(ref(77), {
        revision: pr.revision,
        threads: [
          { body: 'First.', anchor: { filePath: 'src/invoice.ts', startLine: 3, endLine: 3 }, marker: 'margin:one' },
          { body: 'Refused.', anchor: { filePath: 'src/windows.ts', startLine: 2, endLine: 2 }, marker: 'margin:two' },
        ],
      });
      expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
      const refused = outcomes[1];
      if (refused && !refused.ok) {
        expect(refused.error.details).toMatchObject({ providerFailure: 'rejected', providerStatus: 500 });
        expect(refused.error.message).toContain('src/windows.ts line 2');
      }
      expect(fake.pendingReviews()).toBe(0);
      const threads = await collect(provider.listThreads(ref(77)));
      expect(threads.filter((t) => t.marker === 'margin:one')).toHaveLength(1);
      // The refused review was posted once, never retried as a whole.
      const reviewPosts = fake.writes.filter((w) => w.method === 'POST' && w.path.endsWith('/reviews'));
      expect(reviewPosts.map((w) => w.status)).toEqual([500, 200, 500]);
    });

    it('fails fast when Forgejo asks for a longer wait than it is allowed', async () => {
      fake.throttleNext();
      const error = await marginErrorOf(connect({ maxRetryDelayMs: 100 }).verify());
      expect(error.details).toMatchObject({ providerFailure: 'rateLimited', providerStatus: 429, retryAfterMs: 1000 });
    });

    it('refuses a cloud metadata address and credentials in the address, as the built-in families do', () => {
      const refusal = (hostBaseUrl: string) => {
        try {
          createForgejoFamily().connect({ ...connection(TOKEN), hostBaseUrl });
        } catch (error) {
          return error;
        }
        return undefined;
      };
      for (const address of ['http://169.254.169.254', 'https://margin:hunter2@forgejo.example.com']) {
        expect(refusal(address)).toMatchObject({
          code: 'provider_unavailable',
          details: { providerFailure: 'egressRefused' },
        });
      }
      // A self-hosted Forgejo on a private network over plain http is what many installations are.
      expect(refusal('http://10.0.0.12:3000')).toBeUndefined();
      expect(fake.requests).toHaveLength(0);
    });

    it('discovers projects, repositories without archived ones, and users', async () => {
      const provider = connect();
      expect(await collect(provider.listProjects(`${fake.hostUrl}/${FJ_OWNER}`))).toEqual([
        { projectKey: FJ_OWNER, name: 'Acme Corp' },
      ]);
      expect(await collect(provider.listProjects(fake.hostUrl))).toEqual([
        { projectKey: 'margin-bot', name: 'Margin Review Bot' },
        { projectKey: FJ_OWNER, name: 'Acme Corp' },
      ]);
      const repositories = await collect(provider.listRepositories(scope()));
      expect(repositories).toEqual([
        {
          repositoryId: FJ_REPOSITORY_ID,
          name: 'uploader',
          projectKey: FJ_OWNER,
          defaultBranch: 'main',
          webUrl: 'https://forgejo.example.com/acme/uploader',
        },
      ]);
      expect(await provider.searchUsers(scope().scopePath, 'grace')).toEqual([
        { externalUserId: '9', login: 'grace', displayName: 'Grace Hopper', isBot: false },
      ]);
    });
  });

  describe('against Forgejo, which has no API to resolve a conversation', () => {
    beforeEach(async () => {
      fake = await startForgejoFake({ token: TOKEN, flavour: 'forgejo' });
    });
    afterEach(() => fake.close());

    it('refuses to resolve an inline thread with a clear provider error and sends no write', async () => {
      const provider = connect();
      const pr = await provider.getPullRequest(ref());
      const created = await provider.createThread(ref(), {
        body: 'Cap the backoff.',
        anchor: { filePath: 'src/file-002.ts', startLine: 5, endLine: 5 },
        revision: pr.revision,
      });
      const before = fake.writes.length;
      const error = await marginErrorOf(provider.setThreadStatus(ref(), created.threadId, 'resolved'));
      expect(error.code).toBe('provider_unavailable');
      expect(error.details).toMatchObject({ providerFailure: 'rejected' });
      expect(error.message).toContain('Forgejo 11.0.3 has no API to resolve a review conversation');
      expect(fake.writes.length).toBe(before);
      const thread = (await collect(provider.listThreads(ref()))).find((t) => t.threadId === created.threadId);
      expect(thread?.status).toBe('open');
    });

    it('still replies in the same conversation, and leaves pull-request-level threads alone', async () => {
      const provider = connect();
      const pr = await provider.getPullRequest(ref());
      const created = await provider.createThread(ref(), {
        body: 'Cap the backoff.',
        anchor: { filePath: 'src/file-003.ts', startLine: 2, endLine: 2 },
        revision: pr.revision,
      });
      await provider.reply(ref(), created.threadId, 'Or make it configurable.');
      const thread = (await collect(provider.listThreads(ref()))).find((t) => t.threadId === created.threadId);
      expect(thread?.comments.map((c) => c.body)).toEqual(['Cap the backoff.', 'Or make it configurable.']);
      const summary = await provider.createThread(ref(), { body: 'Summary.', revision: pr.revision });
      await expect(provider.setThreadStatus(ref(), summary.threadId, 'resolved')).resolves.toBeUndefined();
    });
  });
});
