// The engine's contract: reviews call what this module builds.
import type {
  KnowledgeCitation,
  KnowledgeLookupV1,
  KnowledgeSearchHit,
  KnowledgeSymbolHit,
} from '../review-engine/index.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import { miniIndexedLookup } from './mini-index.js';
import { searchBranches, servingBranches } from './search.js';

export type { KnowledgeCitation, KnowledgeLookupV1, KnowledgeSearchHit, KnowledgeSymbolHit };

/** A job's knowledge scope as snapshotted when it was queued. */
export interface KnowledgeScopeSnapshot {
  clientId: string;
  mode: string | undefined;
  sourceIds: readonly string[] | undefined;
  /** The job's repository, whose source may index the pull request's change on the side (mini-index). */
  repositoryId?: string | undefined;
}

/** What a review learns while its knowledge is opened, for its protocol. */
export interface KnowledgeScopeNotes {
  /** Snapshotted source ids that no longer name a source of the client (deleted since). */
  missingSources(sourceIds: string[]): void;
}

const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 20;
const SYMBOL_SNIPPET_LINES = 40;

/**
 * What a review may look up: the client's sources in the job's scope (`selectedSources`: only those
 * ids, never another source; `none`: nothing), on their default branch, where an index serves.
 * `undefined` when nothing does, so the engine offers the model no knowledge tools.
 */
export async function knowledgeLookupFor(
  deps: KnowledgeDeps,
  snapshot: KnowledgeScopeSnapshot,
  notes?: KnowledgeScopeNotes,
): Promise<KnowledgeLookupV1 | undefined> {
  if (snapshot.mode === 'none') return undefined;
  const sources = [];
  if (snapshot.mode === 'selectedSources') {
    const missing: string[] = [];
    for (const id of new Set(snapshot.sourceIds ?? [])) {
      const s = await deps.storage.knowledgeSources.findById(id);
      if (s && s.clientId === snapshot.clientId) sources.push(s);
      else missing.push(id);
    }
    // A source deleted after the job snapshotted it: the review goes on without it, and says so.
    if (missing.length > 0) notes?.missingSources(missing);
  } else {
    let cursor: string | undefined;
    do {
      const page = await deps.storage.knowledgeSources.listForClient(snapshot.clientId, { limit: 200, cursor });
      sources.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  const branches = (await servingBranches(deps, sources, undefined)).filter(
    (b) => b.state.status !== 'failed' || b.state.indexedCommit,
  );
  if (branches.length === 0) return undefined;
  const scopes = branches.map((b) => b.scope);
  const limitOf = (options?: { limit?: number }) => Math.max(1, Math.min(MAX_LIMIT, options?.limit ?? DEFAULT_LIMIT));
  const lookup: KnowledgeLookupV1 = {
    async search(query, options) {
      const hits = await searchBranches(deps, snapshot.clientId, branches, {
        query,
        mode: 'auto',
        limit: limitOf(options),
        signal: options?.signal,
      });
      return hits.map(({ branchName: _b, ...hit }) => hit);
    },
    async symbol(name, options) {
      const found = await deps.storage.knowledgeIndex.findSymbols(scopes, name.trim(), limitOf(options));
      const out: KnowledgeSymbolHit[] = [];
      for (const s of found) {
        const chunk = await deps.storage.knowledgeIndex.chunkAt(s, s.path, s.line);
        const lines = chunk?.content.split('\n') ?? [];
        const from = chunk ? s.line - chunk.startLine : 0;
        const to = Math.min(lines.length, from + Math.min(SYMBOL_SNIPPET_LINES, s.endLine - s.line + 1));
        out.push({
          sourceId: s.sourceId,
          path: s.path,
          startLine: s.line,
          endLine: s.line + Math.max(0, to - from - 1),
          commit: s.commit,
          name: s.name,
          kind: s.kind,
          container: s.container ?? undefined,
          signature: s.signature ?? undefined,
          snippet: lines.slice(from, to).join('\n'),
        });
      }
      return out;
    },
    withChange(change) {
      const repositoryKey = snapshot.repositoryId?.toLowerCase();
      const own = branches.find(
        ({ source }) =>
          source.sourceKind === 'repository' &&
          source.canonicalSourceRef.value.toLowerCase() === repositoryKey &&
          source.trackedBranches.some((b) => b.branchName === change.targetBranch && b.miniIndexEnabled),
      );
      return own ? miniIndexedLookup(deps, lookup, own.source, change, limitOf) : lookup;
    },
  };
  return lookup;
}
