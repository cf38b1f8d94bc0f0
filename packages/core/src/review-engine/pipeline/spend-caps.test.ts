import { describe, expect, it } from 'vitest';
import type { AiChatRequest, AiUsage } from '../../ai-model/index.js';
import { createReviewEngine } from '../engine.js';
import { createMemoryLedger } from '../memory/review-memory.js';
import { VERIFY_SYSTEM_PROMPT } from '../prompt/review-prompt.js';
import type { ReviewModelTraits } from '../standalone/review-models.js';
import { reviewDiff } from '../standalone/review-pull-request.js';
import { gitDiffOf } from '../testing/git-diff.js';
import { memoryProtocol, memoryPullRequest, reviewInput, singleModel } from '../testing/memory-review.js';
import { reviewAnswer as answer, changedFiles as files, lines } from '../testing/review-fixtures.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { publishReview } from './publish-review.js';
import { type ReviewSettings, runReview } from './run-review.js';

/**
 * Spend caps per review run (reference §10, §14 case 15): the soft cap degrades the plan on its
 * estimate before any call, the hard cap holds a review whose cheapest part is over it and stops a
 * run whose spend reaches it, and every cut is in the coverage, the protocol and the summary.
 */

const finding = (path: string, quote: string, line: number, over: Record<string, unknown> = {}) => ({
  path,
  quote,
  startLine: line,
  endLine: line,
  category: 'bug',
  title: `Defect at ${quote} in ${path}`,
  evidence: 'A concrete input breaks it.',
  claim: { kind: 'none', symbol: null, path: null },
  severity: 'error',
  confidence: 90,
  message: `The value computed by \`${quote}\` is wrong for an empty order.`,
  suggestion: null,
  ruleId: null,
  ...over,
});

const isVerify = (r: AiChatRequest) => r.system?.startsWith(VERIFY_SYSTEM_PROMPT) === true;
const shownPaths = (r: AiChatRequest) =>
  [...(r.messages[0]?.content ?? '').matchAll(/^## File: (\S+)/gm)].map((m) => m[1]);
/** Every review call costs exactly this much input (at US$2 per million input tokens: US$0.10). */
const costly: AiUsage = {
  inputTokens: 50_000,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
};

/** One chunk per file: no two files fit one chunk, and no file's hunks share one. */
const ONE_CHUNK_PER_HUNK: Partial<ReviewSettings> = { targetChunkTokens: 1 };

async function review(
  pr: ReturnType<typeof memoryPullRequest>,
  model: ReturnType<typeof scriptedModel>,
  settings: Partial<ReviewSettings>,
  traits: ReviewModelTraits = {},
) {
  const protocol = memoryProtocol();
  const ledger = createMemoryLedger('job-1');
  const run = await runReview(
    reviewInput({
      source: pr,
      models: singleModel(model, traits),
      memory: { publications: ledger, dismissals: async () => [] },
      protocol,
      settings: { verify: false, ...settings },
    }),
  );
  if (run.status === 'reviewed' && !run.allFailed) {
    await publishReview(run, { jobId: 'job-1', publisher: pr, ledger, protocol, signal: new AbortController().signal });
  }
  const events = (name: string) => protocol.events.filter((e) => e.name === name).map((e) => e.body);
  return { run, protocol, events };
}

const states = (run: Awaited<ReturnType<typeof review>>['run']) =>
  run.coverage.files.map((f) => [f.path, f.state, f.reason ?? null]);

describe('the soft cap: the degrade ladder on the estimate, before any model call', () => {
  // Three low-tier files of different sizes, a medium one and a high one (its path says auth).
  const pullRequest = () =>
    memoryPullRequest(
      files({
        'src/a.ts': { after: lines(8, (i) => `export const a${i} = ${i};`) },
        'src/auth.ts': { after: lines(2, (i) => `export const session${i} = ${i};`) },
        'src/b.ts': { after: lines(2, (i) => `export const b${i} = ${i};`) },
        'src/c.ts': { after: lines(4, (i) => `export const c${i} = ${i};`) },
        'src/d.ts': { after: lines(40, (i) => `export const d${i} = ${i};`) },
      }),
    );
  const everyFileAFinding = () =>
    scriptedModel((r) => {
      const path = shownPaths(r)[0] ?? '';
      return answer(finding(path, path === 'src/d.ts' ? 'export const d1 = 1;' : '', 1));
    });

  it('skips files lowest risk first, with reason budget, until the estimate fits, and says so everywhere', async () => {
    const uncapped = await review(pullRequest(), everyFileAFinding(), ONE_CHUNK_PER_HUNK);
    expect(uncapped.run.coverage.budget).toBeUndefined();
    const full = uncapped.run.coverage.estimate?.costUsd ?? 0;
    expect(full).toBeGreaterThan(0);
    const softUsd = full / 2;

    const model = everyFileAFinding();
    const { run, events } = await review(pullRequest(), model, {
      ...ONE_CHUNK_PER_HUNK,
      spendCaps: { softUsd },
    });

    // Low tier first, fewest changed lines first (b, c, a); the medium and the high file are reviewed.
    expect(states(run)).toEqual([
      ['src/a.ts', 'skipped', 'budget'],
      ['src/auth.ts', 'reviewed', null],
      ['src/b.ts', 'skipped', 'budget'],
      ['src/c.ts', 'skipped', 'budget'],
      ['src/d.ts', 'reviewed', null],
    ]);
    expect(model.requests.map(shownPaths)).toEqual([['src/auth.ts'], ['src/d.ts']]);
    const [degraded, ...more] = events('budget.degraded');
    expect(more).toEqual([]);
    expect(degraded).toMatchObject({
      step: 'skipFiles',
      estimateBeforeUsd: full,
      files: ['src/b.ts', 'src/c.ts', 'src/a.ts'],
      caps: { softUsd },
    });
    const after = (degraded as { estimateAfterUsd: number }).estimateAfterUsd;
    expect(after).toBeLessThanOrEqual(softUsd);
    expect(run.coverage.estimate?.costUsd).toBe(after);
    expect(events('file.skipped')).toEqual(
      expect.arrayContaining(['src/a.ts', 'src/b.ts', 'src/c.ts'].map((path) => ({ path, reason: 'budget' }))),
    );
    expect(run.coverage.budget).toEqual({
      softUsd,
      degraded: [{ step: 'skipFiles', estimateBeforeUsd: full, estimateAfterUsd: after, files: 3 }],
    });
    expect(run.coverage.complete).toBe(false);
    expect(run.summary).toContain('3 skipped (3 over the spend cap)');
    expect(run.summary).toContain(
      `The estimated cost (US$${full}) was over the soft spend cap of US$${softUsd} per review, so 3 lower-risk files were skipped (estimate now US$${after}).`,
    );
    expect(run.summary).toContain('Not fully reviewed within the spend caps');
  });

  it('first verifies only errors and warnings, and stops there when that fits', async () => {
    const pr = () => memoryPullRequest(files({ 'src/a.ts': { after: lines(6, (i) => `export const a${i} = ${i};`) } }));
    const model = () =>
      scriptedModel((r) => {
        if (isVerify(r)) {
          const ids = [...(r.messages[0]?.content ?? '').matchAll(/^(F\d+)\. /gm)].map((m) => m[1]);
          return {
            text: JSON.stringify({
              items: ids.map((id) => ({
                id,
                score: 9,
                why: 'Visible in the diff.',
                features: {
                  isDefect: true,
                  requiresAssumedInput: false,
                  isQualityOpinion: false,
                  targetsUnchangedCode: false,
                  suggestionIsCorrect: null,
                },
                locatedQuote: null,
              })),
            }),
          };
        }
        return answer(
          finding('src/a.ts', 'export const a1 = 1;', 1, { title: 'Wrong first constant', severity: 'error' }),
          finding('src/a.ts', 'export const a4 = 4;', 4, {
            title: 'Constant could be named better',
            severity: 'suggestion',
            category: 'bug',
          }),
        );
      });
    // Input-priced only, so the verifier's share is a visible part of the estimate.
    const traits = { prices: { inputCostPer1MUsd: 2, outputCostPer1MUsd: 0 } };
    const uncapped = await review(pr(), model(), { verify: true }, traits);
    const full = uncapped.run.coverage.estimate?.costUsd ?? 0;

    const capped = model();
    const { run, events } = await review(pr(), capped, { verify: true, spendCaps: { softUsd: full * 0.95 } }, traits);

    const [step, ...more] = events('budget.degraded') as Array<{ step: string; estimateAfterUsd: number }>;
    expect(more).toEqual([]);
    expect(step).toMatchObject({ step: 'verifySevereOnly', estimateBeforeUsd: full });
    // The verifier counted at 15% of the review's input instead of 30%.
    expect(step?.estimateAfterUsd).toBeCloseTo((full * 1.15) / 1.3, 5);
    expect(states(run)).toEqual([['src/a.ts', 'reviewed', null]]);
    const verifying = capped.requests.filter(isVerify);
    expect(verifying).toHaveLength(1);
    expect(verifying[0]?.messages[0]?.content).toContain('Wrong first constant');
    expect(verifying[0]?.messages[0]?.content).not.toContain('Constant could be named better');
    const suggestion = run.findings.find((f) => f.title === 'Constant could be named better');
    expect(events('verify.skipped')).toEqual([{ findingIds: [suggestion?.id], reason: 'budget' }]);
    expect(suggestion?.verdict).toBeUndefined();
    expect(run.findings.find((f) => f.title === 'Wrong first constant')?.verdict?.score).toBe(9);
    expect(run.summary).toContain('so only errors and warnings were checked by the verifier');
  });
});

describe('the hard cap', () => {
  it('stops starting chunks once the spend reaches it, publishes the findings so far, and skips the rest with reason budget (case 15)', async () => {
    // Five chunks in path order: a, b's first hunk, b's second hunk, c, d.
    const pr = memoryPullRequest(
      files({
        'src/a.ts': { after: lines(3, (i) => `export const a${i} = ${i};`) },
        'src/b.ts': {
          before: lines(60, (i) => `  step(${i});`),
          after: lines(60, (i) => (i === 2 || i === 55 ? `  changed(${i});` : `  step(${i});`)),
        },
        'src/c.ts': { after: lines(3, (i) => `export const c${i} = ${i};`) },
        'src/d.ts': { after: lines(3, (i) => `export const d${i} = ${i};`) },
      }),
    );
    const model = scriptedModel((r) => {
      const [path = ''] = shownPaths(r);
      const quote = path === 'src/b.ts' ? '  changed(2);' : `export const ${path.slice(4, 5)}1 = 1;`;
      return { ...answer(finding(path, quote, path === 'src/b.ts' ? 2 : 1)), usage: costly };
    });
    const { run, events } = await review(pr, model, {
      ...ONE_CHUNK_PER_HUNK,
      maxConcurrentModelCalls: 1,
      spendCaps: { hardUsd: 0.2 },
    });

    expect(run.status).toBe('reviewed');
    expect(model.requests).toHaveLength(2);
    expect(states(run)).toEqual([
      ['src/a.ts', 'reviewed', null],
      ['src/b.ts', 'partial', 'budget'],
      ['src/c.ts', 'skipped', 'budget'],
      ['src/d.ts', 'skipped', 'budget'],
    ]);
    expect(run.coverage.budget).toEqual({
      hardUsd: 0.2,
      degraded: [],
      stopped: { spentUsd: 0.2, chunksNotStarted: 3, files: 3 },
    });
    expect(events('budget.exceeded')).toEqual([
      { spentUsd: 0.2, chunksNotStarted: 3, files: 3, hardUsd: 0.2, paths: ['src/b.ts', 'src/c.ts', 'src/d.ts'] },
    ]);
    // The findings made before the stop are posted; the summary says where the review stopped.
    const posted = pr.created.filter((c) => c.anchor).map((c) => [c.anchor?.filePath, c.anchor?.startLine]);
    expect(posted).toEqual([
      ['src/a.ts', 1],
      ['src/b.ts', 2],
    ]);
    expect(run.summary).toContain(
      '⚠️ The review stopped at the hard spend cap of US$0.2 per review (US$0.2 spent), leaving 3 files not fully reviewed.',
    );
    expect(run.summary).toMatch(/Not fully reviewed within the spend caps.*`src\/b\.ts`, `src\/c\.ts`, `src\/d\.ts`/);
    expect(run.coverage.complete).toBe(false);
    // Usage and US$ per model and purpose; files of 30 changed lines or fewer go to reviewLowEffort.
    expect(run.usage).toMatchObject({ inputTokens: 100_000, estimatedCostUsd: 0.2 });
    expect(run.usage.byModel).toEqual([expect.objectContaining({ purpose: 'reviewLowEffort', estimatedCostUsd: 0.2 })]);
  });

  it('holds the review, with no model call, when even its cheapest part is estimated over the cap', async () => {
    const pr = memoryPullRequest(
      files({
        'src/a.ts': { after: lines(3, (i) => `export const a${i} = ${i};`) },
        'src/b.ts': { after: lines(3, (i) => `export const b${i} = ${i};`) },
      }),
    );
    const model = scriptedModel(() => answer());
    const { run, events, protocol } = await review(pr, model, { spendCaps: { softUsd: 0.000001, hardUsd: 0.000002 } });

    expect(run.status).toBe('budgetHeld');
    expect(model.requests).toHaveLength(0);
    expect(pr.created).toEqual([]);
    expect(run.reason).toMatch(
      /^Held before any model call: even the cheapest part of this review \(one file\) is estimated at US\$0\.0\d+, over the hard spend cap of US\$0\.000002 per review/,
    );
    expect(states(run)).toEqual([
      ['src/a.ts', 'skipped', 'budget'],
      ['src/b.ts', 'skipped', 'budget'],
    ]);
    const [held] = events('budget.held') as Array<{ cheapestUsd: number; estimateUsd: number; hardUsd: number }>;
    expect(held?.hardUsd).toBe(0.000002);
    expect(held?.cheapestUsd).toBeGreaterThan(0.000002);
    expect(run.coverage.budget?.held).toEqual({ cheapestUsd: held?.cheapestUsd, estimateUsd: held?.estimateUsd });
    expect(run.usage.estimatedCostUsd).toBe(0);
    expect(protocol.passes.map((p) => p.stage)).toEqual(['resolve', 'collect', 'plan']);
  });

  it('says so in the protocol when the reviewing model has no prices, so no cap can bind it', async () => {
    const pr = memoryPullRequest(files({ 'src/a.ts': { after: lines(3, (i) => `export const a${i} = ${i};`) } }));
    const model = scriptedModel(() => answer());
    const unpriced = { prices: {} };
    const { run, events } = await review(pr, model, { spendCaps: { hardUsd: 0.000001 } }, unpriced);

    expect(run.status).toBe('reviewed');
    expect(model.requests).toHaveLength(1);
    expect(events('budget.unpriced')).toEqual([
      expect.objectContaining({ purpose: 'reviewDefault', caps: { hardUsd: 0.000001, softUsd: undefined } }),
    ]);
    const priced = await review(
      pr,
      scriptedModel(() => answer()),
      { spendCaps: { softUsd: 100 } },
    );
    expect(priced.events('budget.unpriced')).toEqual([]);
  });

  it('reviews the riskiest chunks first when the estimate says the cap will stop the run', async () => {
    const pr = memoryPullRequest(
      files({
        'src/a.ts': { after: lines(3, (i) => `export const a${i} = ${i};`) },
        'src/auth.ts': { after: lines(3, (i) => `export const session${i} = ${i};`) },
      }),
    );
    const model = scriptedModel(() => ({ ...answer(), usage: costly }));
    const uncapped = await review(
      memoryPullRequest(pr.files),
      scriptedModel(() => answer()),
      ONE_CHUNK_PER_HUNK,
    );
    const full = uncapped.run.coverage.estimate?.costUsd ?? 0;
    // Over the whole plan's estimate but not one file's: the review runs, riskiest chunk first.
    const { run, events } = await review(pr, model, {
      ...ONE_CHUNK_PER_HUNK,
      maxConcurrentModelCalls: 1,
      spendCaps: { hardUsd: full * 0.75 },
    });
    expect(events('plan.ready')[0]).toMatchObject({ order: 'riskiestFirst', spendCaps: { hardUsd: full * 0.75 } });
    expect(model.requests.map(shownPaths)).toEqual([['src/auth.ts']]);
    expect(states(run)).toEqual([
      ['src/a.ts', 'skipped', 'budget'],
      ['src/auth.ts', 'reviewed', null],
    ]);
  });
});

describe('reviews without the server', () => {
  it('take the caps from their settings: a diff whose review is over the hard cap is held without a model call', async () => {
    const model = scriptedModel(() => answer());
    const diff = Object.entries(gitDiffOf({ 'src/a.ts': { after: 'export const a = 1;\n' } }))
      .map(([path, text]) => `diff --git a/${path} b/${path}\n${text}`)
      .join('');
    const review = await reviewDiff({
      diff,
      model,
      modelTraits: { prices: { inputCostPer1MUsd: 2, outputCostPer1MUsd: 8 } },
      settings: { spendCaps: { hardUsd: 0.000001 } },
    });
    expect(review).toMatchObject({
      status: 'budgetHeld',
      reason: expect.stringMatching(/^Held before any model call/),
      partial: true,
      coverage: { files: [{ path: 'src/a.ts', state: 'skipped', reason: 'budget' }] },
    });
    expect(model.requests).toEqual([]);
  });
});

describe('spend cap settings', () => {
  it('refuses a cap that is not a positive amount, or a soft cap above the hard one', async () => {
    expect(() => createReviewEngine({ settings: { spendCaps: { hardUsd: -1 } } })).toThrow(
      'spendCaps.hardUsd must be a positive amount of US dollars.',
    );
    expect(() => createReviewEngine({ settings: { spendCaps: { softUsd: Number.NaN } } })).toThrow(/softUsd/);
    const pr = memoryPullRequest(files({ 'src/a.ts': { after: 'export const a = 1;\n' } }));
    await expect(
      review(
        pr,
        scriptedModel(() => answer()),
        { spendCaps: { softUsd: 2, hardUsd: 1 } },
      ),
    ).rejects.toThrow('spendCaps.softUsd must not exceed spendCaps.hardUsd.');
  });
});
