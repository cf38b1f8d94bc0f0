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
export type { KnowledgeDeps, KnowledgeRepositories } from './knowledge-deps.js';
export {
  KNOWLEDGE_SOURCE_KINDS,
  type KnowledgeSourceKind,
  type KnowledgeSourceRecord,
  type KnowledgeSourcesRepository,
  REFRESH_TRIGGER_MODES,
  SYMBOL_MODES,
  type TrackedBranch,
} from './knowledge-records.js';
export {
  CreateKnowledgeSourceInput,
  KnowledgeSourceList,
  type KnowledgeSourceListBody,
  KnowledgeSourceView,
  type KnowledgeSourceViewBody,
} from './schemas.js';
export { knowledgeSourceView } from './sources.js';
export { createKnowledgeUseCases, type KnowledgeUseCases } from './use-cases.js';
