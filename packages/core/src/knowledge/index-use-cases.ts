import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { emptyBranchState } from './index-branch.js';
import type { IndexBranchStateRecord, IndexStatus } from './index-records.js';
import type { KnowledgeDeps } from './knowledge-deps.js';
import type { KnowledgeSourceRecord } from './knowledge-records.js';
import {
  KnowledgeSearchInput,
  KnowledgeSymbolsQuery,
  PatchKnowledgeSourceInput,
  RefreshKnowledgeSourceInput,
} from './schemas.js';
import { searchBranches, servingBranches } from './search.js';
import { knowledgeSourceView } from './sources.js';

const sourceNotFound = () => MarginError.notFound('Knowledge source not found.');
const DEFAULT_SEARCH_LIMIT = 8;
const DEFAULT_SYMBOL_LIMIT = 20;

async function sourceOf(deps: KnowledgeDeps, clientId: string, sourceId: string): Promise<KnowledgeSourceRecord> {
  const source = await deps.storage.knowledgeSources.findById(sourceId);
  if (!source || source.clientId !== clientId) throw sourceNotFound();
  return source;
}

/** Every source of the client, or the named ones (each must be the client's: 400 naming the field). */
async function sourcesOf(deps: KnowledgeDeps, clientId: string, ids: readonly string[] | undefined) {
  if (ids && ids.length > 0) {
    const missing = await deps.storage.knowledgeSources.findMissing(clientId, ids);
    if (missing.length > 0) {
      throw MarginError.validation(`sourceIds names no knowledge source of this client: ${missing.join(', ')}.`, [
        { path: 'sourceIds', message: 'names no knowledge source of this client' },
      ]);
    }
    const found = await Promise.all([...new Set(ids)].map((id) => deps.storage.knowledgeSources.findById(id)));
    return found.filter((s): s is KnowledgeSourceRecord => s !== undefined);
  }
  const all: KnowledgeSourceRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.storage.knowledgeSources.listForClient(clientId, { limit: 200, cursor });
    all.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}

export async function patchKnowledgeSource(
  deps: KnowledgeDeps,
  actor: Actor,
  clientId: string,
  sourceId: string,
  input: unknown,
) {
  const req = PatchKnowledgeSourceInput.parse(input);
  await deps.authz.requireClient(actor, 'knowledge.manage', clientId);
  const source = await sourceOf(deps, clientId, sourceId);
  const next: KnowledgeSourceRecord = {
    ...source,
    displayName: req.displayName ?? source.displayName,
    rootPath: req.rootPath === undefined ? source.rootPath : req.rootPath || '/',
    symbolMode: req.symbolMode ?? source.symbolMode,
    trackedBranches: req.trackedBranches
      ? req.trackedBranches.map((b) => ({
          branchName: b.branchName,
          refreshTriggerMode: b.refreshTriggerMode ?? 'manual',
          miniIndexEnabled: b.miniIndexEnabled ?? false,
        }))
      : source.trackedBranches,
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.storage.knowledgeSources.update(next);
  // What was indexed under other rules no longer answers: branches no longer tracked lose their index,
  // and a new root path or symbol mode starts the index over at the next refresh.
  const tracked = new Set(next.trackedBranches.map((b) => b.branchName));
  const startOver = next.rootPath !== source.rootPath || next.symbolMode !== source.symbolMode;
  const again: string[] = [];
  for (const state of await deps.storage.knowledgeIndex.branchStates(source.id)) {
    if (tracked.has(state.branchName) && !startOver) continue;
    const scope = { sourceId: source.id, branchName: state.branchName };
    await deps.storage.knowledgeIndex.removeFiles(scope, [
      ...(await deps.storage.knowledgeIndex.fileBlobs(scope)).keys(),
    ]);
    await deps.storage.knowledgeIndex.saveBranchState(emptyBranchState(source.id, state.branchName, next.updatedAt));
    if (tracked.has(state.branchName)) again.push(state.branchName);
  }
  if (again.length > 0) await queueRefresh(deps, next, again);
  return knowledgeSourceView(next);
}

export async function deleteKnowledgeSource(deps: KnowledgeDeps, actor: Actor, clientId: string, sourceId: string) {
  await deps.authz.requireClient(actor, 'knowledge.manage', clientId);
  await sourceOf(deps, clientId, sourceId);
  await deps.storage.knowledgeSources.delete(sourceId);
}

/** Queues an index job per branch (one active job per branch); the worker runs it. */
export async function refreshKnowledgeSource(
  deps: KnowledgeDeps,
  actor: Actor,
  clientId: string,
  sourceId: string,
  input: unknown,
) {
  const req = RefreshKnowledgeSourceInput.parse(input ?? {});
  await deps.authz.requireClient(actor, 'knowledge.manage', clientId);
  const source = await sourceOf(deps, clientId, sourceId);
  const tracked = source.trackedBranches.map((b) => b.branchName);
  if (req.branchName !== undefined && !tracked.includes(req.branchName)) {
    throw MarginError.validation(`The branch ${req.branchName} is not tracked by this source.`, [
      { path: 'branchName', message: 'is not a tracked branch of this source' },
    ]);
  }
  const branches = req.branchName !== undefined ? [req.branchName] : tracked;
  return { sourceId, branches: await queueRefresh(deps, source, branches) };
}

/** For triggers and tests: queues the branches' refresh without an actor (a head moved). */
export async function queueRefresh(deps: KnowledgeDeps, source: KnowledgeSourceRecord, branches: readonly string[]) {
  const now = deps.clock.now().toISOString();
  const out: Array<{ branchName: string; status: 'queued' }> = [];
  for (const branchName of branches) {
    await deps.storage.transaction(async (tx) => {
      await tx.knowledgeIndexJobs.enqueue({
        id: deps.ids.uuid(),
        sourceId: source.id,
        clientId: source.clientId,
        branchName,
        createdAt: now,
      });
      const state =
        (await tx.knowledgeIndex.findBranchState(source.id, branchName)) ??
        emptyBranchState(source.id, branchName, now);
      // A running refresh keeps `indexing`; it runs once more when it ends.
      if (state.status !== 'indexing')
        await tx.knowledgeIndex.saveBranchState({ ...state, status: 'queued', updatedAt: now });
    });
    out.push({ branchName, status: 'queued' });
  }
  deps.events.emit('knowledge.refreshQueued', {
    sourceId: source.id,
    clientId: source.clientId,
    branches: [...branches],
  });
  return out;
}

/** `stale`: the last refresh saw the head move past the indexed commit (and none has caught up yet). */
const statusOf = (state: IndexBranchStateRecord | undefined): IndexStatus => {
  if (!state) return 'neverIndexed';
  if (state.status === 'ready' && state.headCommit && state.headCommit !== state.indexedCommit) return 'stale';
  return state.status;
};

export async function getKnowledgeIndex(deps: KnowledgeDeps, actor: Actor, clientId: string, sourceId: string) {
  await deps.authz.requireClient(actor, 'knowledge.read', clientId);
  const source = await sourceOf(deps, clientId, sourceId);
  const states = new Map((await deps.storage.knowledgeIndex.branchStates(source.id)).map((s) => [s.branchName, s]));
  return {
    branches: source.trackedBranches.map(({ branchName }) => {
      const s = states.get(branchName);
      return {
        branchName,
        status: statusOf(s),
        indexedCommit: s?.indexedCommit ?? null,
        indexedAt: s?.indexedAt ?? null,
        files: s?.files ?? 0,
        chunks: s?.chunks ?? 0,
        symbols: s?.symbols ?? 0,
        skippedFiles: s?.skippedFiles ?? 0,
        error: s?.error ?? null,
      };
    }),
  };
}

export async function searchKnowledge(deps: KnowledgeDeps, actor: Actor, clientId: string, input: unknown) {
  const req = KnowledgeSearchInput.parse(input);
  await deps.authz.requireClient(actor, 'knowledge.read', clientId);
  const sources = await sourcesOf(deps, clientId, req.sourceIds);
  const branches = await servingBranches(deps, sources, req.branchName);
  const results = await searchBranches(deps, clientId, branches, {
    query: req.query,
    mode: req.mode ?? 'auto',
    limit: req.limit ?? DEFAULT_SEARCH_LIMIT,
  });
  return { results };
}

export async function listKnowledgeSymbols(deps: KnowledgeDeps, actor: Actor, clientId: string, query: unknown) {
  const req = KnowledgeSymbolsQuery.parse(query);
  await deps.authz.requireClient(actor, 'knowledge.read', clientId);
  const sources = await sourcesOf(deps, clientId, req.sourceIds);
  const branches = await servingBranches(deps, sources, undefined);
  const found = await deps.storage.knowledgeIndex.findSymbols(
    branches.map((b) => b.scope),
    req.name,
    req.limit ?? DEFAULT_SYMBOL_LIMIT,
  );
  return {
    items: found.map((s) => ({
      sourceId: s.sourceId,
      branchName: s.branchName,
      commit: s.commit,
      path: s.path,
      line: s.line,
      endLine: s.endLine,
      kind: s.kind,
      name: s.name,
      container: s.container,
      signature: s.signature,
    })),
  };
}

/**
 * A crawl or a review saw a branch's head (triggers call this): each of the client's sources of that
 * repository tracking the branch notes the head, so the index reads `stale` once it moved past the
 * indexed commit, and a branch with `refreshTriggerMode: branchUpdate` queues its own refresh.
 */
export async function branchHeadSeen(
  deps: KnowledgeDeps,
  seen: { clientId: string; repositoryId: string; branchName: string; headSha: string },
): Promise<{ queued: string[] }> {
  const queued: string[] = [];
  for (const source of await deps.storage.knowledgeSources.listForRepository(seen.clientId, seen.repositoryId)) {
    const tracked = source.trackedBranches.find((b) => b.branchName === seen.branchName);
    if (!tracked) continue;
    const state = await deps.storage.knowledgeIndex.findBranchState(source.id, seen.branchName);
    if (state?.indexedCommit === seen.headSha) continue;
    if (state && state.headCommit !== seen.headSha) {
      await deps.storage.knowledgeIndex.saveBranchState({
        ...state,
        headCommit: seen.headSha,
        updatedAt: deps.clock.now().toISOString(),
      });
    }
    // A refresh already queued or running for this very head would only run again for nothing.
    const underway = state?.headCommit === seen.headSha && (state.status === 'queued' || state.status === 'indexing');
    if (tracked.refreshTriggerMode === 'branchUpdate' && !underway) {
      await queueRefresh(deps, source, [seen.branchName]);
      queued.push(source.id);
    }
  }
  return { queued };
}
