import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ADO_ORG,
  ADO_PROJECT,
  BITBUCKET_ACCESS_TOKEN,
  type FakeChatModel,
  GITLAB_TOKEN,
  startAzureDevOpsFake,
  startBitbucketFake,
  startFakeChatModel,
  startGitHubFake,
  startGitLabFake,
} from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { runCliProcess } from '../testing/cli-process.js';
import { runCliInProcess } from '../testing/in-process.js';
import { billingScenario, confirmAll, findingsAnswer, isVerifying, userOf } from '../testing/review-scripts.js';

const GH_PAT = 'ghp_canaryCliPublish0123456789abcdefAB';
const ADO_PAT = 'canary-ado-cli-pat-3c5e7a9b1d';

/** Finds the two defects of `billingScenario` in `src/billing.ts`. */
const billingReviewer = (request: Parameters<typeof isVerifying>[0]) => {
  if (isVerifying(request)) return confirmAll(request);
  if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
  return findingsAnswer(
    {
      path: 'src/billing.ts',
      quote: 'const total = price * qty;',
      startLine: 42,
      endLine: 42,
      category: 'bug',
      title: 'Total ignores the discount',
      severity: 'error',
      message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
    },
    {
      path: 'src/billing.ts',
      quote: 'return total / count;',
      startLine: 50,
      endLine: 50,
      category: 'bug',
      title: 'Division by zero for an empty order',
      severity: 'warning',
      message: 'An order without lines has `count` 0, so `total / count` is NaN.',
    },
  );
};

describe('margin review --pr', { timeout: 60_000 }, () => {
  let model: FakeChatModel;
  let dir: string;
  beforeAll(async () => {
    model = await startFakeChatModel({ respond: billingReviewer });
    dir = await mkdtemp(join(tmpdir(), 'margin-review-pr-'));
  });
  afterAll(async () => {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('publishes once: a second run finds its hidden markers on the provider and posts nothing twice', async () => {
    const github = await startGitHubFake({ pat: GH_PAT });
    try {
      await github.loadPullRequest(billingScenario(701));
      const url = `${github.hostUrl}/acme/uploader/pull/701`;
      const env = {
        MARGIN_SCM_TOKEN: GH_PAT,
        MARGIN_AI_BASE_URL: model.apiRoot,
        MARGIN_AI_MODEL: 'fake-chat-model',
        MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      };
      const posts = () => github.writes.filter((w) => w.method === 'POST').map((w) => w.path);
      const first = await runCliProcess(['review', '--pr', url, '--publish', '--format', 'json'], { env });
      expect(first.stderr).toBe('');
      expect(first.code).toBe(1);
      expect(JSON.parse(first.stdout)).toMatchObject({ published: { posted: 3, failed: 0 }, failing: 1 });
      expect(posts()).toEqual([
        expect.stringMatching(/\/repositories\/987654321\/pulls\/701\/reviews$/),
        expect.stringMatching(/\/repositories\/987654321\/issues\/701\/comments$/),
      ]);
      const second = await runCliProcess(['review', '--pr', url, '--publish', '--format', 'json'], { env });
      expect(second.stderr).toBe('');
      const again = JSON.parse(second.stdout);
      expect(again.findings.map((f: { publication: string; reason: string }) => [f.publication, f.reason])).toEqual([
        ['suppressed', 'alreadyReported'],
        ['suppressed', 'alreadyReported'],
      ]);
      expect(posts()).toHaveLength(2);
      // The summary is edited in place, never posted again; nothing else is written.
      expect(github.writes.filter((w) => w.method !== 'POST').map((w) => w.method)).toEqual(['PATCH']);
      // Suppressed repeats do not fail the build a second time.
      expect(second.code).toBe(0);
    } finally {
      await github.close();
    }
  });

  it('reads a pull request of every provider by its address, looking the repository id up by name; a dry run writes nothing', async () => {
    const [gitlab, ado, bitbucket, github] = await Promise.all([
      startGitLabFake(),
      startAzureDevOpsFake({ pat: ADO_PAT, clientSecret: 'unused-client-secret' }),
      startBitbucketFake(),
      startGitHubFake({ pat: GH_PAT }),
    ]);
    try {
      const targets = [
        { fake: gitlab, token: GITLAB_TOKEN, url: `${gitlab.hostBaseUrl}/acme/uploader/-/merge_requests/702` },
        {
          fake: ado,
          token: ADO_PAT,
          url: `${ado.server.url}/${ADO_ORG}/${encodeURIComponent(ADO_PROJECT)}/_git/uploader/pullrequest/702`,
        },
        {
          fake: bitbucket,
          token: BITBUCKET_ACCESS_TOKEN,
          url: 'https://bitbucket.org/acme/uploader/pull-requests/702',
        },
        { fake: github, token: GH_PAT, url: `${github.hostUrl}/acme/uploader/pull/702` },
      ];
      for (const { fake, token, url } of targets) {
        await fake.loadPullRequest(billingScenario(702));
        const out = await inProcess(
          ['review', '--pr', url, '--format', 'json', '--model', 'fake-chat-model', '--base-url', model.apiRoot],
          { MARGIN_SCM_TOKEN: token, MARGIN_ALLOW_PRIVATE_EGRESS: 'true' },
          { bitbucketApiBaseUrl: bitbucket.apiBaseUrl },
        );
        expect({ url, stderr: out.stderr, code: out.code }).toEqual({ url, stderr: '', code: 1 });
        const result = JSON.parse(out.stdout);
        expect(result.findings.map((f: { filePath: string; startLine: number }) => [f.filePath, f.startLine])).toEqual([
          ['src/billing.ts', 42],
          ['src/billing.ts', 50],
        ]);
        expect(result.findings.every((f: { providerThreadId?: string }) => f.providerThreadId === undefined)).toBe(
          true,
        );
        expect(fake.writes.filter((w) => !w.path.includes('graphql'))).toEqual([]);
      }
      const unknown = await inProcess(
        ['review', '--pr', `${github.hostUrl}/acme/nothing-here/pull/702`, '--model', 'm', '--base-url', model.apiRoot],
        { MARGIN_SCM_TOKEN: GH_PAT, MARGIN_ALLOW_PRIVATE_EGRESS: 'true' },
      );
      expect(unknown).toMatchObject({
        code: 2,
        stderr: `margin review: No repository acme/nothing-here is visible to the token in MARGIN_SCM_TOKEN on ${github.hostUrl}.\n`,
      });
      const refused = await inProcess(
        ['review', '--pr', `${github.hostUrl}/acme/uploader/pull/702`, '--model', 'm', '--base-url', model.apiRoot],
        { MARGIN_SCM_TOKEN: 'ghp_wrongTokenForTheFake000000000000000', MARGIN_ALLOW_PRIVATE_EGRESS: 'true' },
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^margin review: .*\n$/);
      expect(refused.stderr).not.toContain('ghp_wrongToken');
    } finally {
      await Promise.all([gitlab.close(), ado.close(), bitbucket.close(), github.close()]);
    }
  });
});

const inProcess = (argv: string[], env: Record<string, string>, registryOptions?: CliIo['registryOptions']) =>
  runCliInProcess(argv, env, { registryOptions });
