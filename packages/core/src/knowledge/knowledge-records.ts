import type { Page, PageRequest } from '../kernel/index.js';
import type { ProviderFamily } from '../scm-provider/index.js';

export const KNOWLEDGE_SOURCE_KINDS = ['repository', 'adoWiki'] as const;
export type KnowledgeSourceKind = (typeof KNOWLEDGE_SOURCE_KINDS)[number];

export const SYMBOL_MODES = ['auto', 'textOnly'] as const;
export type SymbolMode = (typeof SYMBOL_MODES)[number];

export const REFRESH_TRIGGER_MODES = ['manual', 'branchUpdate'] as const;
export type RefreshTriggerMode = (typeof REFRESH_TRIGGER_MODES)[number];

export interface TrackedBranch {
  branchName: string;
  refreshTriggerMode: RefreshTriggerMode;
  miniIndexEnabled: boolean;
}

/** A repository or wiki whose code knowledge reviews may draw on. */
export interface KnowledgeSourceRecord {
  id: string;
  clientId: string;
  displayName: string;
  sourceKind: KnowledgeSourceKind;
  organizationScopeId: string;
  providerProjectKey: string;
  canonicalSourceRef: { provider: ProviderFamily; value: string };
  sourceDisplayName: string;
  defaultBranch: string;
  rootPath: string;
  symbolMode: SymbolMode;
  trackedBranches: TrackedBranch[];
  createdAt: string;
  updatedAt: string;
}

export interface KnowledgeSourcesRepository {
  /** Throws `conflict` when the client already has a source of this kind for this repository. */
  insert(source: KnowledgeSourceRecord): Promise<void>;
  findById(id: string): Promise<KnowledgeSourceRecord | undefined>;
  /** Stores the editable fields (display name, root path, symbol mode, tracked branches) and `updatedAt`. */
  update(source: KnowledgeSourceRecord): Promise<void>;
  /** Removes the source; its index goes with it. */
  delete(id: string): Promise<boolean>;
  /** Oldest first. */
  listForClient(clientId: string, page: PageRequest): Promise<Page<KnowledgeSourceRecord>>;
  /** The client's sources of one repository (its id compared case-insensitively), oldest first. */
  listForRepository(clientId: string, repositoryId: string): Promise<KnowledgeSourceRecord[]>;
  /** Which of `ids` are not sources of the client. */
  findMissing(clientId: string, ids: readonly string[]): Promise<string[]>;
}
