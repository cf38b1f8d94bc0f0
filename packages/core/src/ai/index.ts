export type { AiDeps, AiSettings } from './ai-deps.js';
export * from './ai-model-v1.js';
export {
  AI_FAILURE_CATEGORIES,
  type AiAuthMode,
  type AiConnectionRecord,
  type AiConnectionsRepository,
  type AiLogicalModelsRepository,
  type AiModelCatalogRepository,
  AUTH_MODES,
  type CatalogModelRecord,
  type ConfiguredModelRecord,
  DISCOVERY_MODES,
  type DiscoveryMode,
  type LogicalModelOwnerKind,
  type LogicalModelRecord,
  MODEL_SOURCES,
  type ModelSource,
  type ModelTraits,
  type PriceOverrideRecord,
  type PurposeBindingRecord,
  type PurposeMappingRecord,
  type VerificationRecord,
} from './ai-records.js';
export { estimateCostUsd, type ModelPrices } from './cost.js';
export { failureCategoryOf, failureSummaryOf } from './failure-category.js';
export { toVendorJsonSchema } from './json-schema.js';
export { aiConnectionConfigOf, settingKeysOf, settingsSchemaProblems } from './kind-settings.js';
export {
  checkProfile,
  inferOperationKinds,
  inferProtocolModes,
  modesOf,
  narrowAutoMode,
  operationOf,
} from './profile-rules.js';
export {
  AI_PURPOSES,
  type AiPurpose,
  capabilityForPurpose,
  isAiPurpose,
  OPERATION_KINDS,
  type OperationKind,
} from './purposes.js';
export { type BoundResolvePurpose, type ResolveDeps, type ResolvedPurpose, resolvePurpose } from './resolve-purpose.js';
export {
  AiConnectionAuthInput,
  AiConnectionList,
  AiConnectionView,
  AiDiscoveryResultView,
  AiProbeInput,
  AiProbeResultView,
  AiVerificationView,
  AttachCatalogModelInput,
  aiProviderKind,
  CatalogModelInput,
  CatalogModelList,
  CatalogModelQuery,
  CatalogModelView,
  CatalogProviderList,
  ClientLogicalModelsView,
  ConfiguredModelInput,
  ConfiguredModelView,
  CreateAiConnectionInput,
  DiscoveredModelView,
  LogicalModelInput,
  LogicalModelView,
  PatchAiConnectionInput,
  PermittedProvidersView,
  PriceOverrideInput,
  PriceOverrideList,
  PriceOverrideView,
  PurposeBindingInput,
  PurposeBindingView,
  PurposeMappingView,
  PurposeParam,
  PutLogicalModelInput,
  PutPurposeInput,
  protocolMode,
  TenantLogicalModelList,
} from './schemas.js';
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
