import type { BoundResolvePurpose } from '../ai/index.js';
import type { Clock, EventBus, Ids, SecretBox, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { ProviderRegistry } from '../provider-registry/index.js';
import type { ScmRepositories } from '../scm/index.js';
import type { SpendRepositories } from '../spend/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type { KnowledgeIndexJobsRepository, KnowledgeIndexRepository } from './index-records.js';
import type { KnowledgeSourcesRepository } from './knowledge-records.js';
import type { SymbolExtractor } from './symbol-extractor.js';
import type { VectorCache } from './vector-cache.js';

/** Code knowledge's part of the storage port. */
export interface KnowledgeRepositories {
  knowledgeSources: KnowledgeSourcesRepository;
  knowledgeIndex: KnowledgeIndexRepository;
  knowledgeIndexJobs: KnowledgeIndexJobsRepository;
}

/** What the code-knowledge use cases need. */
export interface KnowledgeDeps {
  storage: StorageSlice<
    KnowledgeRepositories & ScmRepositories & TenancyRepositories & LicensingRepositories & SpendRepositories
  >;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  secrets: SecretBox;
  providers: ProviderRegistry;
  authz: Authorizer;
  /** The client's `embeddingDefault` model, for vectors of chunks and queries. */
  resolvePurpose: BoundResolvePurpose;
  /** Definitions in a file (`symbolMode: auto`). */
  symbols: SymbolExtractor;
  /** Branches' vectors kept in memory between searches. */
  vectors: VectorCache;
}
