/**
 * Purposes are the fixed slots the review loop asks a model for (decisions.md, AI connections).
 * `embeddingDefault` needs an embedding model; every other purpose a chat model.
 */
export const AI_PURPOSES = [
  'reviewDefault',
  'reviewTriage',
  'reviewLowEffort',
  'reviewMediumEffort',
  'reviewHighEffort',
  'reviewVerification',
  'memoryReconsideration',
  'embeddingDefault',
] as const;
export type AiPurpose = (typeof AI_PURPOSES)[number];

export const OPERATION_KINDS = ['chat', 'embedding'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/** The capability a purpose needs from the model that serves it. */
export function capabilityForPurpose(purpose: AiPurpose): OperationKind {
  return purpose === 'embeddingDefault' ? 'embedding' : 'chat';
}

export function isAiPurpose(value: string): value is AiPurpose {
  return (AI_PURPOSES as readonly string[]).includes(value);
}
