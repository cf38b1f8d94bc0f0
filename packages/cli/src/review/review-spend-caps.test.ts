import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeChatAnswer, FakeChatRequest } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGitRepository } from '../git-repository.js';
import { startAnthropicFake } from '../testing/anthropic-fake.js';
import { runCliInProcess } from '../testing/in-process.js';
import { divisionReviewer, writeFeatureRepository } from '../testing/review-fixtures.js';
import { findingsAnswer, numbered } from '../testing/review-scripts.js';

/**
 * `margin review --max-cost-usd` / `--soft-cost-usd` against a priced model: a catalog model of
 * kindAssistant (its prices are the catalog's), answered by the Anthropic-shaped fake on loopback.
 */
describe('margin review spend caps', { timeout: 60_000 }, () => {
  let dir: string;
  let feature: string;
  let wide: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'margin-review-caps-'));
    feature = join(dir, 'feature');
    writeFeatureRepository(feature);
    // Six new files too large to share a chunk: more chunks than the calls one review keeps in flight (4).
    wide = join(dir, 'wide');
    const files = Object.fromEntries(
      Array.from({ length: 6 }, (_, f) => [
        `src/part${f}.ts`,
        numbered(300, (i) => `export const value${f}x${i} = computeSomething(${f}, ${i}, 'padding');`),
      ]),
    );
    writeGitRepository(wide, [
      { message: 'Initial import', branch: 'main', files: { 'README.md': '# Wide\n' } },
      { message: 'Add the parts', branch: 'feature', files },
    ]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function review(
    repo: string,
    respond: (r: FakeChatRequest) => FakeChatAnswer,
    extra: string[],
    env: Record<string, string> = {},
  ) {
    const fake = await startAnthropicFake(respond);
    try {
      const run = await runCliInProcess(
        ['review', '--repo', repo, '--base', 'main', '--head', 'feature', '--format', 'json', ...extra],
        {
          MARGIN_AI_PROVIDER_KIND: 'kindAssistant',
          MARGIN_AI_BASE_URL: fake.url,
          MARGIN_AI_MODEL: 'claude-sonnet-4-20250514',
          MARGIN_AI_API_KEY: 'sk-test-caps',
          MARGIN_ALLOW_PRIVATE_EGRESS: 'true',
          ...env,
        },
      );
      return { ...run, calls: fake.requests.length };
    } finally {
      await fake.close();
    }
  }

  it('stops at --max-cost-usd once the spend reaches it and says so in the coverage, the summary and the text', async () => {
    // Every call reports a million input tokens: US$3 at the catalog's price, far over the cap of US$0.50.
    const costly = () => ({ ...findingsAnswer(), usage: { prompt_tokens: 1_000_000, completion_tokens: 10 } });
    // The flag wins over the installation's default.
    const run = await review(wide, costly, ['--max-cost-usd', '0.50'], { MARGIN_REVIEW_HARD_CAP_USD: '100' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.coverage.budget).toMatchObject({
      hardUsd: 0.5,
      stopped: { chunksNotStarted: 2, files: 2, spentUsd: expect.any(Number) },
    });
    expect(out.coverage.budget.stopped.spentUsd).toBeGreaterThanOrEqual(0.5);
    expect(run.calls).toBe(4);
    expect(out.partial).toBe(true);
    expect(out.coverage.files.filter((f: { reason?: string }) => f.reason === 'budget')).toHaveLength(2);
    expect(out.summary).toContain('The review stopped at the hard spend cap of US$0.5 per review');

    const text = await review(wide, costly, ['--max-cost-usd', '0.5', '--format', 'text']);
    expect(text.stdout).toMatch(
      /^Stopped at the hard spend cap of US\$0\.5 \(US\$[\d.]+ spent\): 2 files not fully reviewed\.$/m,
    );
  });

  it('calls no model when even the cheapest part is estimated over --max-cost-usd, saying so in one line', async () => {
    const run = await review(feature, divisionReviewer('error'), ['--max-cost-usd', '0.000001']);
    expect(run.calls).toBe(0);
    expect([run.code, run.stdout]).toEqual([2, '']);
    expect(run.stderr).toMatch(
      /^margin review: Nothing was reviewed: Held before any model call: even the cheapest part of this review \(one file\) is estimated at US\$[\d.]+, over the hard spend cap of US\$0\.000001 per review/,
    );
    expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('degrades on --soft-cost-usd as the engine’s ladder does, over the environment’s default', async () => {
    const run = await review(feature, divisionReviewer('error'), ['--soft-cost-usd', '0.000001'], {
      MARGIN_REVIEW_SOFT_CAP_USD: '50',
      MARGIN_REVIEW_HARD_CAP_USD: '100',
    });
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout);
    expect(out.coverage.budget).toMatchObject({ softUsd: 0.000001, hardUsd: 100 });
    // The ladder in the engine's order: the verifier on errors and warnings only, then files skipped.
    expect(out.coverage.budget.degraded).toMatchObject([{ step: 'verifySevereOnly' }, { step: 'skipFiles', files: 3 }]);
    expect(out.coverage.files.filter((f: { reason?: string }) => f.reason === 'budget')).toHaveLength(3);
    expect(out.coverage.budget.stopped).toBeUndefined();
    expect(out.summary).toContain('was over the soft spend cap of US$0.000001 per review');
  });

  it('refuses a value that is not an amount, or a soft cap above the hard one, in one line with status 2', async () => {
    const refused = async (extra: string[], env: Record<string, string> = {}) =>
      runCliInProcess(['review', '--base', 'main', '--model', 'm', ...extra], env, { cwd: feature });
    for (const [extra, message] of [
      [
        ['--max-cost-usd', 'lots'],
        "--max-cost-usd takes an amount of US dollars, 0 or more, such as 2.50 (got 'lots').",
      ],
      [['--soft-cost-usd=1e3'], "--soft-cost-usd takes an amount of US dollars, 0 or more, such as 2.50 (got '1e3')."],
      [['--max-cost-usd=-1'], "--max-cost-usd takes an amount of US dollars, 0 or more, such as 2.50 (got '-1')."],
      [
        ['--max-cost-usd', '1', '--soft-cost-usd', '2'],
        '--soft-cost-usd (US$2) must not exceed --max-cost-usd (US$1).',
      ],
      [['--max-cost-usd', '0'], 'Nothing was reviewed: --max-cost-usd 0 allows no model call.'],
    ] as const) {
      const run = await refused([...extra]);
      expect([run.code, run.stdout, run.stderr], extra.join(' ')).toEqual([2, '', `margin review: ${message}\n`]);
    }
    const help = await runCliInProcess(['review', '--help'], {});
    expect(help.stdout).toMatch(/^ {2}--max-cost-usd USD {5}hard cap \(MARGIN_REVIEW_HARD_CAP_USD\)/m);
    expect(help.stdout).toMatch(/^ {2}--soft-cost-usd USD {4}soft cap \(MARGIN_REVIEW_SOFT_CAP_USD\)/m);
    const envSoft = await refused(['--max-cost-usd', '1'], { MARGIN_REVIEW_SOFT_CAP_USD: '3' });
    expect(envSoft.stderr).toBe(
      'margin review: MARGIN_REVIEW_SOFT_CAP_USD (US$3) must not exceed --max-cost-usd (US$1).\n',
    );
  });
});
