import type { Actor } from '../kernel/index.js';
import { MarginError, PageQuery } from '../kernel/index.js';
import type { BlockedPullRequestRecord } from './block-record.js';
import type { DismissalRecord } from './dismissal-record.js';
import { dismissalMemoryKey } from './memory-record.js';
import type { ReviewingDeps } from './reviewing-deps.js';
import { BlockInput, DismissInput, UnblockInput } from './schemas.js';

const blockView = (b: BlockedPullRequestRecord) => ({
  id: b.id,
  providerScopePath: b.providerScopePath,
  providerProjectKey: b.providerProjectKey,
  repositoryId: b.repositoryId,
  pullRequestId: b.pullRequestId,
  reason: b.reason,
  blockedByUserId: b.blockedByUserId,
  blockedAt: b.blockedAt,
});

/** Idempotent: blocking a blocked pull request answers the existing block. A running job is not stopped. */
export async function blockPullRequest(deps: ReviewingDeps, actor: Actor, clientId: string, input: unknown) {
  const req = BlockInput.parse(input);
  await deps.authz.requireClient(actor, 'reviewing.blocks.manage', clientId);
  const block = await deps.storage.blockedPullRequests.put({
    id: deps.ids.uuid(),
    clientId,
    ...req,
    blockedByUserId: actor.userId,
    blockedAt: deps.clock.now().toISOString(),
  });
  return blockView(block);
}

export async function unblockPullRequest(deps: ReviewingDeps, actor: Actor, clientId: string, input: unknown) {
  const req = UnblockInput.parse(input);
  await deps.authz.requireClient(actor, 'reviewing.blocks.manage', clientId);
  const removed = await deps.storage.blockedPullRequests.remove(clientId, req.repositoryId, req.pullRequestId);
  return { ...req, unblocked: removed };
}

export async function listBlockedPullRequests(deps: ReviewingDeps, actor: Actor, clientId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireClient(actor, 'reviewing.blocks.read', clientId);
  const blocks = await deps.storage.blockedPullRequests.list(clientId, page);
  return { items: blocks.items.map(blockView), nextCursor: blocks.nextCursor };
}

const dismissalView = (d: DismissalRecord) => ({ ...d });

export async function dismissFinding(deps: ReviewingDeps, actor: Actor, clientId: string, input: unknown) {
  const req = DismissInput.parse(input);
  await deps.authz.requireClient(actor, 'reviewing.dismissals.manage', clientId);
  const record: DismissalRecord = {
    id: deps.ids.uuid(),
    clientId,
    findingMessage: req.findingMessage,
    filePath: req.filePath ?? null,
    label: req.label ?? null,
    createdAt: deps.clock.now().toISOString(),
    createdByUserId: actor.userId,
  };
  // A dismissal is also thread memory (`adminDismissed`), written with it.
  await deps.storage.transaction(async (tx) => {
    await tx.dismissals.insert(record);
    await tx.threadMemories.upsert({
      id: deps.ids.uuid(),
      clientId,
      threadKey: dismissalMemoryKey(record.id),
      source: 'adminDismissed',
      intent: 'rejected',
      filePath: record.filePath?.replace(/^\/+/, '') ?? null,
      summary: record.findingMessage,
      findingFingerprint: null,
      providerThreadId: null,
      repositoryId: null,
      pullRequestId: null,
      embedding: null,
      createdAt: record.createdAt,
      createdBy: actor.userId,
      forgottenAt: null,
    });
  });
  return dismissalView(record);
}

export async function listDismissals(deps: ReviewingDeps, actor: Actor, clientId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireClient(actor, 'reviewing.dismissals.read', clientId);
  const dismissals = await deps.storage.dismissals.listPage(clientId, page);
  return { items: dismissals.items.map(dismissalView), nextCursor: dismissals.nextCursor };
}

export async function deleteDismissal(deps: ReviewingDeps, actor: Actor, clientId: string, dismissalId: string) {
  await deps.authz.requireClient(actor, 'reviewing.dismissals.manage', clientId);
  const removed = await deps.storage.transaction(async (tx) => {
    if (!(await tx.dismissals.remove(clientId, dismissalId))) return false;
    await tx.threadMemories.removeByThreadKey(clientId, dismissalMemoryKey(dismissalId));
    return true;
  });
  if (!removed) throw MarginError.notFound('Dismissal not found.');
}
