import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MarginError } from '../../kernel/index.js';
import type {
  ScmConnectionConfig,
  ScmProviderFamilyV1,
  ScmProviderV1,
  ScmPullRequestUrlsV1,
  ScmScopeRef,
} from '../../scm-provider/index.js';
import { parseDiff } from '../diff/parse-diff.js';
import { countingIds, memoryPullRequest } from '../testing/memory-review.js';
import { reviewAnswer as answer } from '../testing/review-fixtures.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { diffReviewSource } from './diff-review-source.js';
import { openPullRequestByUrl, parsePullRequestUrl } from './pull-request-url.js';
import { reviewDiff, reviewPullRequest, withRepoConfig } from './review-pull-request.js';
import { splitUnifiedDiff } from './unified-diff-files.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** `git diff` of a base and a head commit made from file trees (`null` deletes). */
function gitDiff(
  base: Record<string, string | Buffer>,
  head: Record<string, string | Buffer | null>,
  mv?: [string, string],
) {
  const dir = mkdtempSync(join(tmpdir(), 'margin-split-'));
  dirs.push(dir);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  git('init', '-q');
  for (const [p, c] of Object.entries(base)) write(p, c);
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  if (mv) git('mv', mv[0], mv[1]);
  for (const [p, c] of Object.entries(head))
    if (c === null) unlinkSync(join(dir, p));
    else write(p, c);
  git('add', '-A');
  git('commit', '-q', '-m', 'head');
  return git('diff', '-M', '--no-color', 'HEAD~1', 'HEAD');
}

const numbered = (n: number, f: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => f(i + 1)).join('\n')}\n`;

describe('splitUnifiedDiff', () => {
  it('reads every kind of change git prints: modified, added, deleted, renamed with and without edits, binary, CRLF', () => {
    const text = gitDiff(
      {
        'src/a.ts': numbered(20, (i) => `line ${i}`),
        'src/gone.ts': 'export const gone = 1;\n',
        'src/old name.ts': numbered(12, (i) => `moved ${i}`),
        'src/edited.ts': numbered(12, (i) => `keep ${i}`),
        'img/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
        'win.txt': 'one\r\ntwo\r\nthree\r\n',
      },
      {
        'src/a.ts': numbered(20, (i) => (i === 4 ? '--- looks like a header' : i === 15 ? 'changed 15' : `line ${i}`)),
        'src/new.ts': 'export const fresh = 2;\n',
        'src/gone.ts': null,
        'src/new name.ts': numbered(12, (i) => `moved ${i}`),
        'src/old name.ts': null,
        'src/edited.ts': null,
        'src/edited2.ts': numbered(12, (i) => (i === 6 ? 'kept but edited' : `keep ${i}`)),
        'img/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9]),
        'win.txt': 'one\r\n2\r\nthree\r\n',
      },
    );
    const files = splitUnifiedDiff(text);
    expect(files.map((f) => [f.path, f.previousPath, f.changeType, f.isBinary])).toEqual([
      ['img/logo.png', undefined, 'modified', true],
      ['src/a.ts', undefined, 'modified', false],
      ['src/edited2.ts', 'src/edited.ts', 'renamed', false],
      ['src/gone.ts', undefined, 'deleted', false],
      ['src/new name.ts', 'src/old name.ts', 'renamed', false],
      ['src/new.ts', undefined, 'added', false],
      ['win.txt', undefined, 'modified', false],
    ]);
    const byPath = Object.fromEntries(files.map((f) => [f.path, f]));
    expect(byPath['img/logo.png']?.diff).toBe('Binary files a/img/logo.png and b/img/logo.png differ\n');
    expect(byPath['src/new name.ts']?.diff).toBe('--- a/src/old name.ts\n+++ b/src/new name.ts\n');
    const a = parseDiff(byPath['src/a.ts']?.diff ?? '');
    expect(a.hunks).toHaveLength(2);
    expect(a.hunks[0]?.lines.find((l) => l.kind === 'added')?.text).toBe('--- looks like a header');
    expect([byPath['src/a.ts']?.additions, byPath['src/a.ts']?.deletions]).toEqual([2, 2]);
    expect(parseDiff(byPath['win.txt']?.diff ?? '').crlf).toBe(true);
    expect(byPath['src/gone.ts']?.diff).toContain('+++ /dev/null');
  });

  it('reads a diff without `diff --git` headers (diff -u, a patch file)', () => {
    const text = [
      '--- a/src/x.py\t2026-01-01 00:00:00',
      '+++ b/src/x.py\t2026-01-02 00:00:00',
      '@@ -1,2 +1,2 @@',
      ' def f():',
      '-    return 1',
      '+    return 2',
      '--- /dev/null',
      '+++ b/src/y.py',
      '@@ -0,0 +1 @@',
      '+print("y")',
    ].join('\n');
    expect(splitUnifiedDiff(text).map((f) => [f.path, f.changeType, f.additions])).toEqual([
      ['src/x.py', 'modified', 1],
      ['src/y.py', 'added', 1],
    ]);
  });
});

const finding = (path: string, quote: string, line: number, over: Record<string, unknown> = {}) => ({
  path,
  quote,
  startLine: line,
  endLine: line,
  category: 'bug',
  title: `Defect at ${quote}`,
  evidence: 'A concrete input breaks it.',
  claim: { kind: 'none', symbol: null, path: null },
  severity: 'error',
  confidence: 90,
  message: `The value computed by \`${quote}\` is wrong for an empty order.`,
  suggestion: null,
  ruleId: null,
  ...over,
});

describe('reviewDiff', () => {
  const diff = gitDiff(
    { 'src/total.ts': numbered(10, (i) => `step(${i});`), 'docs/readme.md': 'Hello\n' },
    {
      'src/total.ts': numbered(10, (i) => (i === 5 ? 'const avg = total / count;' : `step(${i});`)),
      'docs/readme.md': 'Hello there\n',
    },
  );

  it('reviews diff text with the engine and answers in the job-result shapes, with the protocol', async () => {
    const model = scriptedModel(() => answer(finding('src/total.ts', 'const avg = total / count;', 5)));
    const result = await reviewDiff({
      diff,
      title: 'Averages',
      model,
      modelTraits: { prices: { inputCostPer1MUsd: 1, outputCostPer1MUsd: 4 } },
      settings: { verify: false },
      ids: countingIds(),
    });
    expect(result.status).toBe('reviewed');
    expect(result.allFailed).toBe(false);
    expect(result.findings).toEqual([
      expect.objectContaining({
        filePath: 'src/total.ts',
        startLine: 5,
        severity: 'error',
        category: 'bug',
        publication: 'published',
        anchorMethod: 'quote',
        fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/),
      }),
    ]);
    expect(result.coverage.counts.reviewed).toBe(2);
    expect(result.summary).toContain('### Margin review');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.estimatedCostUsd).toBeGreaterThan(0);
    expect(result.protocol.passes.map((p) => p.stage)).toEqual(
      expect.arrayContaining(['resolve', 'collect', 'plan', 'review', 'filter', 'summarize']),
    );
    expect(result.protocol.events.some((e) => e.name === 'answer.read')).toBe(true);
    expect(model.requests[0]?.messages[0]?.content).toContain('Averages');
  });

  it('keeps a finding whose quote no shown line has off every line, whatever its number, and says why', async () => {
    const model = scriptedModel(() => answer(finding('src/total.ts', 'const avg = sum / n;', 5)));
    const result = await reviewDiff({ diff, model, settings: { verify: false } });
    expect(result.findings).toEqual([
      expect.objectContaining({ filePath: 'src/total.ts', startLine: null, publication: 'summaryOnly' }),
    ]);
    const event = result.protocol.events.find((e) => e.name === 'finding.unanchored');
    expect(event?.body).toMatchObject({ reason: 'quoteNotFound', modelLine: 5 });
  });

  it('applies a configuration given instead of the repository’s', async () => {
    const model = scriptedModel(() => answer());
    const result = await reviewDiff({
      diff,
      model,
      config: 'exclude: ["docs/**"]\n',
      settings: { verify: false },
    });
    expect(result.coverage.files.find((f) => f.path === 'docs/readme.md')).toMatchObject({
      state: 'skipped',
      reason: 'excludedByConfig',
    });
  });

  it('keeps the source’s other abilities, comparing commits included, when a configuration is given', async () => {
    const comparisons: string[] = [];
    const source = {
      ...diffReviewSource({ diff }),
      compareCommits: async (from: string, to: string) => {
        comparisons.push(`${from}..${to}`);
        return { relation: 'ahead' as const, files: [] };
      },
    };
    const configured = withRepoConfig(source, 'exclude: ["docs/**"]\n');
    await configured.compareCommits?.('a'.repeat(40), 'b'.repeat(40));
    expect(comparisons).toEqual([`${'a'.repeat(40)}..${'b'.repeat(40)}`]);
    expect(configured.readsFiles).toBe(false);
  });

  it('says when every chunk failed instead of reporting silence', async () => {
    const model = scriptedModel(() => MarginError.provider('unavailable', 'The AI provider is unreachable.'));
    const result = await reviewDiff({ diff, model, settings: { verify: false } });
    expect(result.allFailed).toBe(true);
    expect(result.partial).toBe(true);
  });
});

describe('reviewPullRequest with publish', () => {
  it('posts once: a second run finds its markers on the provider and posts nothing new', async () => {
    const diffs = splitUnifiedDiff(
      gitDiff(
        { 'src/a.ts': numbered(8, (i) => `a${i}`) },
        { 'src/a.ts': numbered(8, (i) => (i === 3 ? 'boom()' : `a${i}`)) },
      ),
    );
    const pr = memoryPullRequest(diffs.map((f) => ({ path: f.path, changeType: f.changeType, diff: f.diff })));
    const model = scriptedModel(() => answer(finding('src/a.ts', 'boom()', 3)));
    const run = () => reviewPullRequest({ source: pr, model, settings: { verify: false }, publish: { publisher: pr } });
    const first = await run();
    expect(first.published).toEqual({ posted: 2, failed: 0, resolved: 0 });
    expect(pr.created).toHaveLength(2);
    const second = await run();
    expect(pr.created).toHaveLength(2);
    expect(second.findings[0]).toMatchObject({ publication: 'suppressed', reason: 'alreadyReported' });
    expect(pr.edits).toHaveLength(1); // the summary, edited in place
  });
});

describe('parsePullRequestUrl', () => {
  /** A family of the test's own that reads addresses through `read`, or none when it is left out. */
  const family = (id: string, read?: ScmPullRequestUrlsV1['read']): ScmProviderFamilyV1 => ({
    specificationVersion: 'v1',
    family: id,
    displayName: `${id[0]?.toUpperCase()}${id.slice(1)}`,
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: id,
    codeReviewPlatform: 'pullRequest',
    capabilities: { repositoriesById: false, wikiSources: false },
    connect: () => {
      throw new Error('not connected in this test');
    },
    webhook: { authenticate: () => false, parse: () => ({ kind: 'unclassified', eventType: '', idempotencyKey: '' }) },
    ...(read ? { pullRequestUrls: { example: `https://${id}.example/OWNER/REPO/${id}/7`, read } } : {}),
  });
  /** Reads `https://HOST/OWNER/REPO/<marker>/N`, as a family whose addresses carry `marker` would. */
  const byMarker =
    (marker: string): ScmPullRequestUrlsV1['read'] =>
    (url, [owner, repository, kind, number]) =>
      kind === marker && owner && repository
        ? {
            hostBaseUrl: url.origin,
            scopePath: `${url.origin}/${owner}`,
            projectKey: owner,
            repositoryName: repository,
            repositoryPath: `${owner}/${repository}`,
            pullRequestId: Number(number),
          }
        : undefined;
  const registry = (...scm: ScmProviderFamilyV1[]) => ({ scm });
  const catchError = (run: () => unknown): MarginError => {
    try {
      run();
    } catch (error) {
      if (MarginError.isInstance(error)) return error;
      throw error;
    }
    throw new Error('expected a MarginError');
  };
  const both = registry(family('alpha', byMarker('alpha')), family('beta', byMarker('beta')));

  it('asks every family and answers what the one that reads the address read, naming it', () => {
    expect(parsePullRequestUrl('https://git.example/acme/Web%20App/beta/12/files', both)).toEqual({
      family: 'beta',
      hostBaseUrl: 'https://git.example',
      scopePath: 'https://git.example/acme',
      projectKey: 'acme',
      repositoryName: 'Web App',
      repositoryPath: 'acme/Web App',
      pullRequestId: 12,
    });
  });

  it('refuses an address two families read, naming both', () => {
    const greedy = registry(family('alpha', byMarker('alpha')), family('copycat', byMarker('alpha')));
    expect(() => parsePullRequestUrl('https://git.example/acme/app/alpha/3', greedy)).toThrow(
      '--pr is read as a pull request address by Alpha (alpha) and Copycat (copycat), whose address shapes overlap',
    );
  });

  it('refuses an address no family reads, listing the examples of those that read addresses', () => {
    const withSilent = registry(family('alpha', byMarker('alpha')), family('silent'), family('beta', byMarker('beta')));
    const refusal = catchError(() => parsePullRequestUrl('https://git.example/acme/app/issues/3', withSilent));
    expect(refusal).toMatchObject({
      code: 'validation_failed',
      message:
        '--pr is not a pull request or merge request address; expected an address like https://alpha.example/OWNER/REPO/alpha/7 or https://beta.example/OWNER/REPO/beta/7.',
      details: { details: [{ path: 'pr', message: 'is not a pull request or merge request address' }] },
    });
    expect(() => parsePullRequestUrl('https://git.example/a/b/alpha/1', registry(family('silent')))).toThrow(
      '--pr is not a pull request or merge request address; no registered source-control family reads pull request addresses.',
    );
  });

  it('says why a family refuses an address of its shape, unless another family reads it', () => {
    const refusing = family('gamma', (_url, segments) =>
      segments.includes('gamma')
        ? { refused: 'names a Gamma Server pull request, which Margin does not support' }
        : undefined,
    );
    expect(() =>
      parsePullRequestUrl('https://git.example/a/b/gamma/1', registry(refusing, family('beta', byMarker('beta')))),
    ).toThrow('--pr names a Gamma Server pull request, which Margin does not support; expected an address like');
    expect(
      parsePullRequestUrl('https://git.example/a/gamma/beta/1', registry(refusing, family('beta', byMarker('beta')))),
    ).toMatchObject({
      family: 'beta',
      repositoryName: 'gamma',
    });
  });

  it.each([
    ['not a url', 'is not a URL'],
    ['ftp://git.example/acme/app/alpha/7', 'must be an http or https address'],
    ['https://me:secret@git.example/acme/app/alpha/1', 'must not carry credentials'],
    ['https://git.example/acme/%E0%A4%A/alpha/1', 'has a malformed %-escape in its path'],
    ['https://git.example/acme/app/alpha/x', 'does not end in a pull request number'],
    ['https://git.example/acme/app/alpha/0', 'does not end in a pull request number'],
    ['https://git.example/acme/app/alpha', 'does not end in a pull request number'],
  ])('refuses %s before or after asking the families, whatever they read', (url, why) => {
    const error = catchError(() => parsePullRequestUrl(url, both));
    expect(error).toMatchObject({
      code: 'validation_failed',
      details: { details: [{ path: 'pr', message: expect.stringContaining(why) }] },
    });
    expect(error.message).toMatch(
      /; expected an address like https:\/\/alpha\.example\/.* or https:\/\/beta\.example\//,
    );
    expect(error.message).not.toContain('secret');
  });

  it('openPullRequestByUrl connects the family that read the address and looks the repository id up by name', async () => {
    const connected: ScmConnectionConfig[] = [];
    const provider = {
      specificationVersion: 'v1',
      family: 'beta',
      async *listRepositories(scope: ScmScopeRef) {
        yield { repositoryId: 'r-1', name: 'other', projectKey: scope.projectKey };
        yield { repositoryId: 'r-2', name: 'App', projectKey: scope.projectKey };
      },
    } as unknown as ScmProviderV1;
    const beta = {
      ...family('beta', byMarker('beta')),
      connect: (connection: ScmConnectionConfig) => {
        connected.push(connection);
        return provider;
      },
    };
    const opened = await openPullRequestByUrl({
      registry: registry(family('alpha', byMarker('alpha')), beta),
      url: 'http://127.0.0.1:3000/acme/app/beta/9',
      token: 'pat-for-beta',
    });
    expect(connected).toEqual([
      {
        family: 'beta',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: 'http://127.0.0.1:3000',
        secret: 'pat-for-beta',
      },
    ]);
    expect(opened.ref).toEqual({
      scopePath: 'http://127.0.0.1:3000/acme',
      projectKey: 'acme',
      repositoryId: 'r-2',
      pullRequestId: 9,
    });
    expect(opened.pullRequest.family).toBe('beta');
  });
});
