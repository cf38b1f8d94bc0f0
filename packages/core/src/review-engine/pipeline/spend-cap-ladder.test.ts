import { describe, expect, it } from 'vitest';
import type { AiChatRequest, ModelPrices } from '../../ai-model/index.js';
import { MarginError } from '../../kernel/index.js';
import { createMemoryLedger } from '../memory/review-memory.js';
import { VERIFY_SYSTEM_PROMPT } from '../prompt/review-prompt.js';
import { TRIAGE_SYSTEM_PROMPT } from '../prompt/triage-prompt.js';
import type { ReviewModels } from '../review-engine-v1.js';
import {
  memoryProtocol,
  memoryPullRequest,
  modelsByPurpose,
  reviewInput,
  singleModel,
} from '../testing/memory-review.js';
import { changedFiles as files, lines } from '../testing/review-fixtures.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { type ReviewSettings, runReview } from './run-review.js';

/**
 * The soft cap's rungs that move a tier to a cheaper model (reference §10 steps 3 and 4), on an
 * estimate priced per purpose: high-tier chunks on the medium purpose (`mediumForHigh`), low-tier
 * chunks on the triage model (`triageForLow`) — each taken only when it lowers the estimate, in the
 * ladder's order, until the estimate fits; and the chunks then really call the cheaper model.
 */

// One high-tier file (its path says auth) and two low-tier ones, one chunk each.
const pullRequest = (config?: string) => {
  const pr = memoryPullRequest(
    files({
      'src/a.ts': { after: lines(4, (i) => `export const a${i} = ${i};`) },
      'src/auth.ts': { after: lines(4, (i) => `export const session${i} = ${i};`) },
      'src/b.ts': { after: lines(2, (i) => `export const b${i} = ${i};`) },
    }),
  );
  if (config) pr.branchFiles['.margin/config.yml'] = config;
  return pr;
};
const ONE_CHUNK_PER_FILE: Partial<ReviewSettings> = { targetChunkTokens: 1 };

const isVerify = (r: AiChatRequest) => r.system?.startsWith(VERIFY_SYSTEM_PROMPT) === true;
const isTriage = (r: AiChatRequest) => r.system?.startsWith(TRIAGE_SYSTEM_PROMPT) === true;
const shownPaths = (r: AiChatRequest) =>
  [...(r.messages[0]?.content ?? '').matchAll(/^## File: (\S+)/gm)].map((m) => m[1]);
/** A model that finds nothing; asked to triage, it fails, so every file keeps its heuristic tier. */
const model = (id: string) =>
  scriptedModel(
    (r) =>
      isTriage(r)
        ? MarginError.provider('unavailable', 'No triage in this test.')
        : { text: JSON.stringify({ findings: [], fileNotes: null }) },
    id,
  );
const reviewedBy = (m: ReturnType<typeof model>) =>
  m.requests.filter((r) => !isVerify(r) && !isTriage(r)).flatMap(shownPaths);

const DEAR: ModelPrices = { inputCostPer1MUsd: 10, outputCostPer1MUsd: 40 };
const MEDIUM: ModelPrices = { inputCostPer1MUsd: 1, outputCostPer1MUsd: 4 };
const TRIAGE: ModelPrices = { inputCostPer1MUsd: 0.1, outputCostPer1MUsd: 0.4 };

/** The default model (dear) for every purpose, the medium-effort and the triage purposes mapped when asked. */
function fleet(opts: { medium?: ModelPrices; triage?: ModelPrices } = {}) {
  const models = { dear: model('dear-model'), medium: model('medium-model'), triage: model('triage-model') };
  const reviewModels = modelsByPurpose(
    { model: models.dear, prices: DEAR },
    {
      ...(opts.medium ? { reviewMediumEffort: { model: models.medium, prices: opts.medium } } : {}),
      ...(opts.triage ? { reviewTriage: { model: models.triage, prices: opts.triage } } : {}),
    },
  );
  return { ...models, reviewModels };
}

async function review(
  pr: ReturnType<typeof pullRequest>,
  models: ReviewModels,
  settings: Partial<ReviewSettings> = {},
) {
  const protocol = memoryProtocol();
  const run = await runReview(
    reviewInput({
      source: pr,
      models,
      memory: { publications: createMemoryLedger('job-1'), dismissals: async () => [] },
      protocol,
      settings: { verify: true, ...ONE_CHUNK_PER_FILE, ...settings },
    }),
  );
  const events = (name: string) => protocol.events.filter((e) => e.name === name).map((e) => e.body);
  const steps = () => (events('budget.degraded') as Array<{ step: string }>).map((e) => e.step);
  return { run, events, steps };
}
const estimateOf = (r: Awaited<ReturnType<typeof review>>) => r.run.coverage.estimate?.costUsd ?? 0;
type Step = { step: string; estimateBeforeUsd: number; estimateAfterUsd: number };

describe('the estimate priced per purpose', () => {
  it('is unchanged when every purpose falls back to reviewDefault', async () => {
    const one = model('one');
    const single = await review(pullRequest(), singleModel(one, { prices: DEAR }));
    const fallback = await review(pullRequest(), modelsByPurpose({ model: one, prices: DEAR }));
    expect(estimateOf(fallback)).toBe(estimateOf(single));
    expect(estimateOf(single)).toBeGreaterThan(0);
  });

  it('prices a tier at the model its purpose resolves to', async () => {
    const dear = await review(pullRequest(), fleet().reviewModels);
    // The medium purpose serves no chunk here (no medium-tier file): the estimate does not move.
    expect(estimateOf(await review(pullRequest(), fleet({ medium: MEDIUM }).reviewModels))).toBe(estimateOf(dear));
    const cheapHigh = modelsByPurpose(
      { model: model('dear-model'), prices: DEAR },
      { reviewHighEffort: { model: model('high-model'), prices: MEDIUM } },
    );
    const cheaper = await review(pullRequest(), cheapHigh);
    expect(estimateOf(cheaper)).toBeLessThan(estimateOf(dear));
    const cheapVerifier = modelsByPurpose(
      { model: model('dear-model'), prices: DEAR },
      { reviewVerification: { model: model('verifier'), prices: TRIAGE } },
    );
    expect(estimateOf(await review(pullRequest(), cheapVerifier))).toBeLessThan(estimateOf(dear));
  });
});

describe('the ladder moves tiers to cheaper models', () => {
  it('takes thoroughOff, verifySevereOnly, mediumForHigh, triageForLow, skipFiles in that order, each from where the last left the estimate', async () => {
    const { reviewModels } = fleet({ medium: MEDIUM, triage: TRIAGE });
    const full = estimateOf(await review(pullRequest('thorough: true\n'), reviewModels));
    const { run, events, steps } = await review(pullRequest('thorough: true\n'), reviewModels, {
      spendCaps: { softUsd: full * 0.02 },
    });
    expect(steps()).toEqual(['thoroughOff', 'verifySevereOnly', 'mediumForHigh', 'triageForLow', 'skipFiles']);
    const taken = events('budget.degraded') as Step[];
    expect(taken[0]?.estimateBeforeUsd).toBe(full);
    for (let i = 1; i < taken.length; i++) {
      expect(taken[i]?.estimateBeforeUsd).toBe(taken[i - 1]?.estimateAfterUsd);
      expect(taken[i]?.estimateAfterUsd).toBeLessThan(taken[i]?.estimateBeforeUsd ?? 0);
    }
    expect(taken.at(-1)?.estimateAfterUsd).toBeLessThanOrEqual(full * 0.02);
    expect(run.coverage.budget?.degraded.map((d) => d.step)).toEqual(steps());
  });

  it('stops at mediumForHigh when that fits: the high-tier chunk calls the medium model, and says so', async () => {
    const full = estimateOf(await review(pullRequest(), fleet({ medium: MEDIUM, triage: TRIAGE }).reviewModels));
    const { reviewModels, dear, medium, triage } = fleet({ medium: MEDIUM, triage: TRIAGE });
    const softUsd = full * 0.8;
    const { run, events, steps } = await review(pullRequest(), reviewModels, { spendCaps: { softUsd } });

    expect(steps()).toEqual(['verifySevereOnly', 'mediumForHigh']);
    const [, moved] = events('budget.degraded') as Step[];
    expect(moved?.estimateAfterUsd).toBeLessThanOrEqual(softUsd);
    expect(run.coverage.estimate?.costUsd).toBe(moved?.estimateAfterUsd);
    expect(reviewedBy(medium)).toEqual(['src/auth.ts']);
    expect(reviewedBy(dear).sort()).toEqual(['src/a.ts', 'src/b.ts']);
    expect(reviewedBy(triage)).toEqual([]);
    // The chunk keeps its tier; the purpose it was reviewed on shows, in the protocol and the usage.
    expect(events('chunk.shown')).toContainEqual(
      expect.objectContaining({
        files: [expect.objectContaining({ path: 'src/auth.ts' })],
        tier: 'high',
        purpose: 'reviewMediumEffort',
      }),
    );
    expect(run.usage.byModel).toContainEqual(
      expect.objectContaining({ purpose: 'reviewMediumEffort', remoteModelId: 'medium-model' }),
    );
    expect(run.usage.byModel.map((m) => m.purpose)).not.toContain('reviewHighEffort');
    expect(run.coverage.budget?.degraded).toEqual([
      expect.objectContaining({ step: 'verifySevereOnly' }),
      { step: 'mediumForHigh', estimateBeforeUsd: moved?.estimateBeforeUsd, estimateAfterUsd: moved?.estimateAfterUsd },
    ]);
    expect(run.summary).toContain(
      'so only errors and warnings were checked by the verifier and high-risk chunks were reviewed with the medium-effort model',
    );
    expect(run.coverage.files.every((f) => f.state === 'reviewed')).toBe(true);
  });

  it('does not take mediumForHigh when the medium purpose is not cheaper, and then reviews low-tier chunks on the triage model', async () => {
    for (const medium of [undefined, DEAR, { inputCostPer1MUsd: 20, outputCostPer1MUsd: 80 }]) {
      const models = () => fleet({ ...(medium ? { medium } : {}), triage: TRIAGE });
      const full = estimateOf(await review(pullRequest(), models().reviewModels));
      const { reviewModels, dear, triage } = models();
      const { run, steps, events } = await review(pullRequest(), reviewModels, { spendCaps: { softUsd: full * 0.8 } });

      expect(steps()).toEqual(['verifySevereOnly', 'triageForLow']);
      expect(reviewedBy(triage).sort()).toEqual(['src/a.ts', 'src/b.ts']);
      expect(reviewedBy(dear)).toEqual(['src/auth.ts']);
      expect(events('chunk.shown')).toContainEqual(
        expect.objectContaining({
          files: [expect.objectContaining({ path: 'src/a.ts' })],
          tier: 'low',
          purpose: 'reviewTriage',
        }),
      );
      expect(run.usage.byModel).toContainEqual(
        expect.objectContaining({ purpose: 'reviewTriage', remoteModelId: 'triage-model' }),
      );
      expect(run.summary).toContain('low-risk chunks were reviewed with the triage model');
    }
  });

  it('does not take triageForLow without a reviewTriage mapping: it skips files instead', async () => {
    const full = estimateOf(await review(pullRequest(), fleet({ medium: MEDIUM }).reviewModels));
    const { reviewModels, dear, medium } = fleet({ medium: MEDIUM });
    const { run, steps } = await review(pullRequest(), reviewModels, { spendCaps: { softUsd: full * 0.3 } });

    expect(steps()).toEqual(['verifySevereOnly', 'mediumForHigh', 'skipFiles']);
    expect(reviewedBy(medium)).toEqual(['src/auth.ts']);
    expect(run.coverage.files.filter((f) => f.reason === 'budget').length).toBeGreaterThan(0);
    // Whatever low-tier file is left is still reviewed on its own purpose's model.
    expect(reviewedBy(dear).every((p) => p === 'src/a.ts' || p === 'src/b.ts')).toBe(true);
  });

  it('does not take triageForLow when the triage model is not cheaper', async () => {
    const full = estimateOf(await review(pullRequest(), fleet({ medium: MEDIUM, triage: DEAR }).reviewModels));
    const { reviewModels, triage } = fleet({ medium: MEDIUM, triage: DEAR });
    const { steps } = await review(pullRequest(), reviewModels, { spendCaps: { softUsd: full * 0.3 } });
    expect(steps()).toEqual(['verifySevereOnly', 'mediumForHigh', 'skipFiles']);
    expect(reviewedBy(triage)).toEqual([]);
  });
});
