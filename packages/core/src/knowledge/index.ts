export type { IndexOutcome } from './index-branch.js';
export {
  type BranchEmbeddings,
  INDEX_STATUSES,
  type IndexBranchStateRecord,
  type IndexChunkInput,
  type IndexChunkRecord,
  type IndexedFileInput,
  type IndexJobRecord,
  type IndexScope,
  type IndexStatus,
  type IndexSymbolInput,
  type IndexSymbolRecord,
  type KnowledgeIndexJobsRepository,
  type KnowledgeIndexRepository,
  type LexicalHit,
} from './index-records.js';
export type { KnowledgeIndexWorkerUseCases } from './index-worker.js';
export type { KnowledgeDeps, KnowledgeRepositories } from './knowledge-deps.js';
export type {
  KnowledgeCitation,
  KnowledgeLookupV1,
  KnowledgeScopeNotes,
  KnowledgeScopeSnapshot,
  KnowledgeSearchHit,
  KnowledgeSymbolHit,
} from './knowledge-lookup.js';
export {
  KNOWLEDGE_SOURCE_KINDS,
  type KnowledgeSourceKind,
  type KnowledgeSourceRecord,
  type KnowledgeSourcesRepository,
  REFRESH_TRIGGER_MODES,
  SYMBOL_MODES,
  type TrackedBranch,
} from './knowledge-records.js';
export { nearestChunks } from './nearest-chunks.js';
export {
  CreateKnowledgeSourceInput,
  KnowledgeIndexView,
  type KnowledgeIndexViewBody,
  KnowledgeRefreshAccepted,
  type KnowledgeRefreshAcceptedBody,
  KnowledgeSearchInput,
  KnowledgeSearchResults,
  type KnowledgeSearchResultsBody,
  KnowledgeSourceList,
  type KnowledgeSourceListBody,
  KnowledgeSourceView,
  type KnowledgeSourceViewBody,
  KnowledgeSymbolList,
  type KnowledgeSymbolListBody,
  KnowledgeSymbolsQuery,
  PatchKnowledgeSourceInput,
  RefreshKnowledgeSourceInput,
  SEARCH_MODES,
} from './schemas.js';
export { knowledgeSourceView } from './sources.js';
export { lineSymbolExtractor, type SymbolExtractor } from './symbol-extractor.js';
export { createKnowledgeUseCases, type KnowledgeUseCases } from './use-cases.js';
export { VectorCache } from './vector-cache.js';
