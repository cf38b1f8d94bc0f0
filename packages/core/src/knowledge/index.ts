export {
  KNOWLEDGE_SOURCE_KINDS,
  type KnowledgeSourceKind,
  type KnowledgeSourceRecord,
  type KnowledgeSourcesRepository,
  REFRESH_TRIGGER_MODES,
  SYMBOL_MODES,
  type TrackedBranch,
} from './knowledge-records.js';
export { CreateKnowledgeSourceInput, KnowledgeSourceList, KnowledgeSourceView } from './schemas.js';
export { createKnowledgeSource, getKnowledgeSource, knowledgeSourceView, listKnowledgeSources } from './sources.js';
