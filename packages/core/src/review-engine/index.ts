export type { ReviewContext, ReviewEngineV1, ReviewOutcome } from './review-engine-v1.js';
