import type { ModelPrices } from '../../ai-model/index.js';
import { TIER_PURPOSE, type Tier } from '../plan/tiers.js';
import type { ReviewModel, ReviewModels } from '../review-engine-v1.js';

/** The model each tier's purpose resolves to, looked up once per run (never per file). */
export async function tierModelsOf(models: ReviewModels): Promise<Record<Tier, ReviewModel>> {
  const [low, medium, high] = await Promise.all([
    models.forPurpose(TIER_PURPOSE.low),
    models.forPurpose(TIER_PURPOSE.medium),
    models.forPurpose(TIER_PURPOSE.high),
  ]);
  return { low, medium, high };
}

/**
 * The prices of the model `reviewTriage` is mapped to, for the ladder's `triageForLow`; `undefined`
 * when it is not mapped to a model of its own (it resolves to `reviewDefault`) or its mapping is
 * broken — triage never fails a review, and neither does the ladder's use of it.
 */
export async function mappedTriagePrices(models: ReviewModels, signal: AbortSignal): Promise<ModelPrices | undefined> {
  try {
    const model = await models.forPurpose('reviewTriage');
    return model.resolvedPurpose === 'reviewTriage' ? model.prices : undefined;
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}
