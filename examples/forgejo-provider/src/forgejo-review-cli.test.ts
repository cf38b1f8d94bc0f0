/**
 * `margin review --pr` on a Forgejo pull request, as a person runs it: `MARGIN_PLUGINS` names this
 * plugin and nothing else changes. The family reads the address, the token in `MARGIN_SCM_TOKEN`
 * reaches the fake, and a scripted OpenAI-compatible model reviews the change.
 */
import { fileURLToPath } from 'node:url';
import { runCliInProcess } from '@margin/cli/testing';
import { type FakeChatModel, startFakeChatModel } from '@margin/providers/testing';
import { billingScenario, confirmAll, findingsAnswer, isVerifying, userOf } from '@margin/server-express/test-kits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FJ_OWNER, FJ_REPOSITORY, type ForgejoFake, startForgejoFake } from './testing/forgejo-fake.js';

// Obviously fake, and distinctive so a leak is easy to spot.
const TOKEN = 'fj-cli-token-0123456789abcdef0123456789ab';
/** This package: `MARGIN_PLUGINS` names the plugin by a path relative to the working directory. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

let fake: ForgejoFake;
let model: FakeChatModel;

beforeAll(async () => {
  fake = await startForgejoFake({ token: TOKEN, flavour: 'forgejo' });
  model = await startFakeChatModel({
    respond: (request) => {
      if (isVerifying(request)) return confirmAll(request);
      if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
      return findingsAnswer({
        path: 'src/billing.ts',
        quote: 'const total = price * qty;',
        startLine: 42,
        endLine: 42,
        category: 'bug',
        title: 'Total ignores the discount',
        severity: 'error',
        message: 'The total is computed from `price` and `qty` only, so a discounted order is charged in full.',
      });
    },
  });
});

afterAll(async () => {
  await model?.close();
  await fake?.close();
});

const review = (url: string, flags: string[] = [], env: Record<string, string> = {}) =>
  runCliInProcess(
    ['review', '--pr', url, '--format', 'json', ...flags],
    {
      MARGIN_PLUGINS: './src/index.ts',
      MARGIN_SCM_TOKEN: TOKEN,
      MARGIN_AI_BASE_URL: model.apiRoot,
      MARGIN_AI_MODEL: 'fake-chat-model',
      MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
      ...env,
    },
    { cwd: PACKAGE_DIR },
  );

describe('margin review --pr with the Forgejo plugin', { timeout: 60_000 }, () => {
  it('reviews a Forgejo pull request by its address, then publishes it as one review and one summary', async () => {
    const number = 702;
    fake.loadPullRequest(billingScenario(number));
    const url = `${fake.hostUrl}/${FJ_OWNER}/${FJ_REPOSITORY}/pulls/${number}`;

    const dry = await review(url);
    expect({ stderr: dry.stderr, code: dry.code }).toEqual({ stderr: '', code: 1 });
    const result = JSON.parse(dry.stdout);
    expect(result.findings).toEqual([
      expect.objectContaining({ filePath: 'src/billing.ts', startLine: 42, severity: 'error' }),
    ]);
    expect(fake.writes).toEqual([]);
    // The address names the repository; its id was looked up among the owner's repositories.
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        `GET /orgs/${FJ_OWNER}/repos`,
        `GET /repos/${FJ_OWNER}/${FJ_REPOSITORY}/pulls/${number}`,
      ]),
    );

    const published = await review(url, ['--publish']);
    expect({ stderr: published.stderr, code: published.code }).toEqual({ stderr: '', code: 1 });
    expect(JSON.parse(published.stdout)).toMatchObject({ published: { posted: 2, failed: 0 } });
    const repo = `/repos/${FJ_OWNER}/${FJ_REPOSITORY}`;
    expect(fake.writes.map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual([
      `POST ${repo}/pulls/${number}/reviews 200`,
      `POST ${repo}/issues/${number}/comments 201`,
    ]);
    expect(fake.writes[0]?.body).toMatchObject({
      event: 'COMMENT',
      comments: [{ path: 'src/billing.ts', new_position: 42 }],
    });
    expect(JSON.stringify([dry, published])).not.toContain(TOKEN);
  });

  it('without the plugin, says the address is no registered family’s, listing the built-in examples', async () => {
    const run = await review(`${fake.hostUrl}/${FJ_OWNER}/${FJ_REPOSITORY}/pulls/702`, [], { MARGIN_PLUGINS: '' });
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(
      /^margin review: --pr is not a pull request or merge request address; expected an address like https:\/\/dev\.azure\.com\/.* or https:\/\/bitbucket\.org\/WORKSPACE\/REPO\/pull-requests\/7\.\n$/,
    );
  });
});
