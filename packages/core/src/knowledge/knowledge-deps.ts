import type { Clock, Ids, StorageSlice } from '../kernel/index.js';
import type { LicensingRepositories } from '../licensing/index.js';
import type { ProviderRegistry } from '../provider-registry/index.js';
import type { ScmRepositories } from '../scm/index.js';
import type { Authorizer, TenancyRepositories } from '../tenancy/index.js';
import type { KnowledgeIndexJobsRepository, KnowledgeIndexRepository } from './index-records.js';
import type { KnowledgeSourcesRepository } from './knowledge-records.js';

/** Code knowledge's part of the storage port. */
export interface KnowledgeRepositories {
  knowledgeSources: KnowledgeSourcesRepository;
  knowledgeIndex: KnowledgeIndexRepository;
  knowledgeIndexJobs: KnowledgeIndexJobsRepository;
}

/** What the code-knowledge use cases need. */
export interface KnowledgeDeps {
  storage: StorageSlice<KnowledgeRepositories & ScmRepositories & TenancyRepositories & LicensingRepositories>;
  clock: Clock;
  ids: Ids;
  providers: ProviderRegistry;
  authz: Authorizer;
}
