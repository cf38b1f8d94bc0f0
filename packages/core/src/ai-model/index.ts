/**
 * The AI model port and what any caller of a model needs: purposes, usage and cost, structured
 * answers, failure categories and a kind's settings. The review engine uses this without the AI
 * capability's use cases (connections, catalog, logical models).
 */
export * from './ai-model-v1.js';
export { estimateCostUsd, type ModelPrices } from './cost.js';
export { failureCategoryOf, failureSummaryOf } from './failure-category.js';
export { toVendorJsonSchema } from './json-schema.js';
export { aiConnectionConfigOf, readKindSettings, settingKeysOf, settingsSchemaProblems } from './kind-settings.js';
export {
  AI_PURPOSES,
  type AiPurpose,
  capabilityForPurpose,
  isAiPurpose,
  OPERATION_KINDS,
  type OperationKind,
} from './purposes.js';
export { type ChatStructuredOptions, type ChatStructuredResult, chatStructured } from './structured-chat.js';
export {
  askStructured,
  type OutputRung,
  parseJsonLeniently,
  readTextAnswer,
  type StructuredCapabilities,
  type StructuredOutcome,
  type StructuredSpec,
} from './structured-output.js';
export { addUsage, emptyUsage } from './usage.js';
