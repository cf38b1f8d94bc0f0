import type { AiModelV1 } from '../../ai-model/index.js';
import type { ReviewModel, ReviewModels } from '../review-engine-v1.js';

export type ReviewModelTraits = Partial<Omit<ReviewModel, 'model' | 'purpose'>>;

/**
 * One model serving every purpose of a review (generation, verification), with what the engine
 * needs to budget and price it. Without traits the model is asked in text mode (the rung every
 * model can answer), with the default context window and no prices.
 */
export function reviewModelsOf(model: AiModelV1, traits: ReviewModelTraits = {}): ReviewModels {
  return {
    async forPurpose(purpose) {
      return {
        purpose,
        resolvedPurpose: 'reviewDefault',
        connectionId: 'standalone',
        model,
        supportsStructuredOutput: false,
        supportsToolUse: false,
        maxContextTokens: null,
        prices: {},
        reasoningEffort: 'none',
        ...traits,
      };
    },
  };
}

export const isReviewModels = (value: AiModelV1 | ReviewModels): value is ReviewModels =>
  typeof (value as Partial<ReviewModels>).forPurpose === 'function';
