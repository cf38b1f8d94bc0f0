import type { Actor } from '../kernel/index.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import type { KnowledgeSourceListBody, KnowledgeSourceViewBody } from './schemas.js';
import { createKnowledgeSource, getKnowledgeSource, listKnowledgeSources } from './sources.js';

/** Code-knowledge sources: what a review may consult beyond the diff. */
export interface KnowledgeUseCases {
  createKnowledgeSource(actor: Actor, clientId: string, input: unknown): Promise<KnowledgeSourceViewBody>;
  listKnowledgeSources(actor: Actor, clientId: string, query: unknown): Promise<KnowledgeSourceListBody>;
  getKnowledgeSource(actor: Actor, clientId: string, sourceId: string): Promise<KnowledgeSourceViewBody>;
}

export function createKnowledgeUseCases(deps: KnowledgeDeps): KnowledgeUseCases {
  return {
    createKnowledgeSource: (actor, clientId, input) => createKnowledgeSource(deps, actor, clientId, input),
    listKnowledgeSources: (actor, clientId, query) => listKnowledgeSources(deps, actor, clientId, query),
    getKnowledgeSource: (actor, clientId, sourceId) => getKnowledgeSource(deps, actor, clientId, sourceId),
  };
}
