import type { Actor } from '../kernel/index.js';
import {
  branchHeadSeen,
  deleteKnowledgeSource,
  getKnowledgeIndex,
  listKnowledgeSymbols,
  patchKnowledgeSource,
  refreshKnowledgeSource,
  searchKnowledge,
} from './index-use-cases.js';
import { createKnowledgeIndexWorker, type KnowledgeIndexWorkerUseCases } from './index-worker.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import {
  type KnowledgeLookupV1,
  type KnowledgeScopeNotes,
  type KnowledgeScopeSnapshot,
  knowledgeLookupFor,
} from './knowledge-lookup.js';
import type {
  KnowledgeIndexViewBody,
  KnowledgeRefreshAcceptedBody,
  KnowledgeSearchResultsBody,
  KnowledgeSourceListBody,
  KnowledgeSourceViewBody,
  KnowledgeSymbolListBody,
} from './schemas.js';
import { createKnowledgeSource, getKnowledgeSource, listKnowledgeSources } from './sources.js';

/** Code-knowledge sources: what a review may consult beyond the diff. */
export interface KnowledgeUseCases {
  createKnowledgeSource(actor: Actor, clientId: string, input: unknown): Promise<KnowledgeSourceViewBody>;
  listKnowledgeSources(actor: Actor, clientId: string, query: unknown): Promise<KnowledgeSourceListBody>;
  getKnowledgeSource(actor: Actor, clientId: string, sourceId: string): Promise<KnowledgeSourceViewBody>;
  patchKnowledgeSource(
    actor: Actor,
    clientId: string,
    sourceId: string,
    input: unknown,
  ): Promise<KnowledgeSourceViewBody>;
  /** The source and its whole index. */
  deleteKnowledgeSource(actor: Actor, clientId: string, sourceId: string): Promise<void>;
  refreshKnowledgeSource(
    actor: Actor,
    clientId: string,
    sourceId: string,
    input: unknown,
  ): Promise<KnowledgeRefreshAcceptedBody>;
  getKnowledgeIndex(actor: Actor, clientId: string, sourceId: string): Promise<KnowledgeIndexViewBody>;
  searchKnowledge(actor: Actor, clientId: string, input: unknown): Promise<KnowledgeSearchResultsBody>;
  listKnowledgeSymbols(actor: Actor, clientId: string, query: unknown): Promise<KnowledgeSymbolListBody>;
  /**
   * For triggers: a crawl or a review saw this head of a repository's branch. Marks tracking sources'
   * index stale and queues a refresh where the branch is tracked with `branchUpdate`.
   */
  branchHeadSeen(seen: {
    clientId: string;
    repositoryId: string;
    branchName: string;
    headSha: string;
  }): Promise<{ queued: string[] }>;
  /** For reviews: lookups within a job's snapshotted knowledge scope; `undefined` when nothing serves. */
  lookupFor(snapshot: KnowledgeScopeSnapshot, notes?: KnowledgeScopeNotes): Promise<KnowledgeLookupV1 | undefined>;
  /** For hosts: the index worker's calls. */
  indexWorker: KnowledgeIndexWorkerUseCases;
}

export function createKnowledgeUseCases(deps: KnowledgeDeps): KnowledgeUseCases {
  return {
    createKnowledgeSource: (actor, clientId, input) => createKnowledgeSource(deps, actor, clientId, input),
    listKnowledgeSources: (actor, clientId, query) => listKnowledgeSources(deps, actor, clientId, query),
    getKnowledgeSource: (actor, clientId, sourceId) => getKnowledgeSource(deps, actor, clientId, sourceId),
    patchKnowledgeSource: (actor, clientId, sourceId, input) =>
      patchKnowledgeSource(deps, actor, clientId, sourceId, input),
    deleteKnowledgeSource: (actor, clientId, sourceId) => deleteKnowledgeSource(deps, actor, clientId, sourceId),
    refreshKnowledgeSource: (actor, clientId, sourceId, input) =>
      refreshKnowledgeSource(deps, actor, clientId, sourceId, input),
    getKnowledgeIndex: (actor, clientId, sourceId) => getKnowledgeIndex(deps, actor, clientId, sourceId),
    searchKnowledge: (actor, clientId, input) => searchKnowledge(deps, actor, clientId, input),
    listKnowledgeSymbols: (actor, clientId, query) => listKnowledgeSymbols(deps, actor, clientId, query),
    branchHeadSeen: (seen) => branchHeadSeen(deps, seen),
    lookupFor: (snapshot, notes) => knowledgeLookupFor(deps, snapshot, notes),
    indexWorker: createKnowledgeIndexWorker(deps),
  };
}
