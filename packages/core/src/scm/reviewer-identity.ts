import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import type { ReviewerIdentityRecord } from './connection-records.js';
import { requireConnection } from './connections.js';
import { connectScmProvider } from './open-scm-provider.js';
import { PutReviewerIdentityInput, ResolveReviewerIdentityQuery } from './schemas.js';
import type { ScmDeps } from './scm-deps.js';

export const reviewerIdentityView = (r: ReviewerIdentityRecord) => ({
  clientId: r.clientId,
  connectionId: r.connectionId,
  externalUserId: r.externalUserId,
  login: r.login,
  displayName: r.displayName,
  isBot: r.isBot,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/**
 * Provider users matching `search`, to pick the reviewer identity from. The search runs in the
 * connection's first enabled scope (some providers search per organization or workspace), or on the
 * host when the connection has no enabled scope.
 */
export async function resolveReviewerIdentities(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
  query: unknown,
) {
  const { search } = ResolveReviewerIdentityQuery.parse(query);
  await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  const connection = await requireConnection(deps, clientId, connectionId);
  const scope = await deps.storage.providerScopes.firstEnabled(connectionId);
  const users = await connectScmProvider(deps, connection).searchUsers(
    scope?.scopePath ?? connection.hostBaseUrl,
    search,
  );
  return {
    items: users.map((u) => ({
      externalUserId: u.externalUserId,
      login: u.login,
      displayName: u.displayName,
      isBot: u.isBot,
    })),
  };
}

/** Sets the connection's one reviewer identity, replacing any earlier one. */
export async function putReviewerIdentity(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
  input: unknown,
) {
  const req = PutReviewerIdentityInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  await requireConnection(deps, clientId, connectionId);
  const now = deps.clock.now().toISOString();
  const stored = await deps.storage.transaction(async (tx) => {
    const put = await tx.reviewerIdentities.put({
      connectionId,
      clientId,
      externalUserId: req.externalUserId,
      login: req.login,
      displayName: req.displayName ?? req.login,
      isBot: req.isBot ?? false,
      createdAt: now,
      updatedAt: now,
    });
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'scmConnection',
      verb: 'reviewerIdentitySet',
      resourceId: connectionId,
      summary: `set the reviewer identity to '${req.login}'`,
    });
    return put;
  });
  return reviewerIdentityView(stored);
}

export async function getReviewerIdentity(deps: ScmDeps, actor: Actor, clientId: string, connectionId: string) {
  await deps.authz.requireClient(actor, 'scm.discovery', clientId);
  await requireConnection(deps, clientId, connectionId);
  const identity = await deps.storage.reviewerIdentities.findByConnection(connectionId);
  if (!identity) throw MarginError.notFound('This provider connection has no reviewer identity yet.');
  return reviewerIdentityView(identity);
}
