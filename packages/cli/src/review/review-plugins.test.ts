import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../testing/in-process.js';
import { writeFeatureRepository } from '../testing/review-fixtures.js';

/**
 * An AI provider kind a plugin adds, with no network: its model answers every review with one finding
 * on the division in src/billing.ts, and confirms it when asked to verify.
 */
const ECHO_PLUGIN = `
const usage = { inputTokens: 100, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 20, reasoningTokens: 0 };
const finding = {
  path: 'src/billing.ts', quote: 'const share = total / count;', startLine: 12, endLine: 12, category: 'bug',
  title: 'Division by zero for an empty order', severity: 'error', confidence: 90, evidence: 'count may be 0',
  claim: { kind: 'none', symbol: null, path: null }, suggestion: null, ruleId: null,
  message: 'An order without lines has \`count\` 0, so \`total / count\` is NaN.',
};
export const plugin = {
  name: 'echo-reviewer',
  ai: () => [{
    specificationVersion: 'v1', kind: 'kindEcho', displayName: 'Echo', supportsDiscovery: false,
    protocols: [{ mode: 'echoChat', operation: 'chat' }], requiresApiKey: false,
    probe: async () => ({ status: 'succeeded', summary: 'Echo answered.', warnings: [] }),
    discoverModels: async () => ({ discoveryStatus: 'succeeded', manualEntryAllowed: true, warnings: [], models: [] }),
    createModel: (_connection, spec) => ({
      specificationVersion: 'v1', providerKind: 'kindEcho', remoteModelId: spec.remoteModelId,
      async chat(request) {
        const asked = [request.system ?? '', ...request.messages.map((m) => String(m.content))].join('\\n');
        const verifying = (request.system ?? '').startsWith('You check findings');
        const ids = [...asked.matchAll(/^(F\\d+)\\. /gm)].map((m) => m[1]);
        const text = verifying
          ? JSON.stringify({ items: ids.map((id) => ({ id, score: 9, why: 'Visible in the diff.', locatedQuote: null,
              features: { isDefect: true, requiresAssumedInput: false, isQualityOpinion: false, targetsUnchangedCode: false, suggestionIsCorrect: null } })) })
          : JSON.stringify({ findings: asked.includes('## File: src/billing.ts') ? [finding] : [], fileNotes: null });
        return { text, toolCalls: [], finishReason: 'stop', usage, protocolMode: 'echoChat' };
      },
      async embed() { throw new Error('no embeddings'); },
    }),
  }],
};
`;

/**
 * A source-control family a plugin adds, with no network: it reads `HOST/OWNER/REPO/changes/N` (and,
 * on toy.example, GitHub's `/pull/` too, to overlap a built-in) and its provider sees no repository.
 */
const TOY_HOST_PLUGIN = `
const coordinates = (url, owner, repository, number) => ({
  hostBaseUrl: url.origin, scopePath: url.origin + '/' + owner, projectKey: owner, repositoryName: repository,
  repositoryPath: owner + '/' + repository, pullRequestId: Number(number),
});
export default () => ({
  name: 'toy-host',
  scm: () => [{
    specificationVersion: 'v1', family: 'toyHost', displayName: 'Toy Host', authenticationKinds: ['personalAccessToken'],
    receiverSegment: 'toyHost', codeReviewPlatform: 'pullRequest', capabilities: { repositoriesById: false, wikiSources: false },
    connect: () => ({ specificationVersion: 'v1', family: 'toyHost', async *listRepositories() {} }),
    webhook: { authenticate: () => false, parse: () => ({ kind: 'unclassified', eventType: 'none', idempotencyKey: 'none' }) },
    pullRequestUrls: {
      example: 'https://toy.example/OWNER/REPO/changes/7',
      read(url, [owner, repository, kind, number]) {
        if (kind === 'changes' || (kind === 'pull' && url.hostname === 'toy.example')) {
          return coordinates(url, owner, repository, number);
        }
        return undefined;
      },
    },
  }],
});
`;

describe('margin review with MARGIN_PLUGINS', { timeout: 60_000 }, () => {
  let dir: string;
  let repo: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-review-plugins-'));
    repo = join(dir, 'repo');
    writeFeatureRepository(repo);
    await writeFile(join(dir, 'echo-plugin.mjs'), ECHO_PLUGIN);
    await writeFile(join(dir, 'toy-host-plugin.mjs'), TOY_HOST_PLUGIN);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const review = (env: Record<string, string>) =>
    runCliInProcess(
      ['review', '--repo', repo, '--base', 'main', '--head', 'feature', '--format', 'json'],
      {
        MARGIN_AI_PROVIDER_KIND: 'kindEcho',
        MARGIN_AI_BASE_URL: 'https://echo.example.com',
        MARGIN_AI_MODEL: 'echo-1',
        ...env,
      },
      { cwd: dir },
    );

  it('reviews with a kind a plugin registers, named by a path relative to the working directory', async () => {
    const run = await review({ MARGIN_PLUGINS: './echo-plugin.mjs' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const out = JSON.parse(run.stdout);
    expect(out.findings).toEqual([
      expect.objectContaining({
        filePath: 'src/billing.ts',
        startLine: 12,
        severity: 'error',
        publication: 'published',
      }),
    ]);
  });

  it('without the plugin, names the registered kinds; with a broken entry, says which in one line', async () => {
    const missing = await review({});
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^margin review: --provider-kind must be one of kindCloudA, .* \(got 'kindEcho'\)\.\n$/,
    );
    const broken = await review({ MARGIN_PLUGINS: './nowhere.mjs' });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /^margin review: Invalid configuration: MARGIN_PLUGINS entry '\.\/nowhere\.mjs' could not be loaded/,
    );
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('asks a plugin’s family to read --pr addresses: its own, and one that overlaps a built-in’s, refused naming both', async () => {
    const pr = (url: string, env: Record<string, string> = {}) =>
      runCliInProcess(
        ['review', '--pr', url, '--model', 'm', '--base-url', 'https://models.example.com/v1'],
        { MARGIN_SCM_TOKEN: 'toy-token-1234567890', ...env },
        { cwd: dir },
      );
    const plugins = { MARGIN_PLUGINS: './toy-host-plugin.mjs' };
    // Read by the plugin and opened with its provider, which lists no repository: nothing reaches the network.
    expect(await pr('https://toy.example/acme/app/changes/3', plugins)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'margin review: No repository acme/app is visible to the token in MARGIN_SCM_TOKEN on https://toy.example.\n',
    });
    expect(await pr('https://toy.example/acme/app/pull/3', plugins)).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'margin review: --pr is read as a pull request address by GitHub (gitHostA) and Toy Host (toyHost), whose address shapes overlap; the address alone does not say which to ask.\n',
    });
    const unknown = await pr('https://toy.example/acme/app/issues/3', plugins);
    expect(unknown.stderr).toMatch(
      /^margin review: --pr is not a pull request or merge request address; expected an address like .*pull-requests\/7 or https:\/\/toy\.example\/OWNER\/REPO\/changes\/7\.\n$/,
    );
    // Without the plugin, the family's shape is nobody's.
    expect((await pr('https://toy.example/acme/app/changes/3')).stderr).toMatch(
      /^margin review: --pr is not a pull request or merge request address; .*pull-requests\/7\.\n$/,
    );
  });
});
