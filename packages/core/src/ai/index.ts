export * from './ai-model-v1.js';
export { estimateCostUsd, type ModelPrices } from './cost.js';
export {
  type ChatStructuredOptions,
  type ChatStructuredResult,
  chatStructured,
  parseJsonLeniently,
  toVendorJsonSchema,
} from './structured-chat.js';
export { addUsage, emptyUsage } from './usage.js';
