import { changedFields } from '../audit/index.js';
import { type Actor, MarginError, PageQuery, requireInteractiveSession } from '../kernel/index.js';
import type { IdentityDeps } from './identity-deps.js';
import { hashPassword } from './passwords.js';
import { CreateUserInput, PatchUserInput } from './schemas.js';
import type { UserPatch, UserRecord } from './user-record.js';
import { forgetUser } from './user-state-cache.js';

export const userView = (u: UserRecord) => ({
  id: u.id,
  username: u.username,
  displayName: u.displayName,
  email: u.email,
  globalRole: u.globalRole,
  isActive: u.isActive,
  createdAt: u.createdAt,
});

export async function createUser(deps: IdentityDeps, actor: Actor, input: unknown) {
  deps.authz.requirePlatform(actor, 'users.manage');
  const req = CreateUserInput.parse(input);
  const now = deps.clock.now().toISOString();
  const user: UserRecord = {
    id: deps.ids.uuid(),
    username: req.username,
    displayName: req.displayName ?? req.username,
    passwordHash: await hashPassword(req.password),
    email: req.email ?? null,
    globalRole: req.globalRole ?? 'user',
    isActive: true,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.users.insert(user);
    await deps.audit.record(tx, actor, {
      verb: 'created',
      resourceType: 'user',
      resourceId: user.id,
      summary: `created user '${user.username}' (${user.globalRole})`,
    });
  });
  deps.events.emit('user.created', { userId: user.id, username: user.username });
  return userView(user);
}

export async function listUsers(deps: IdentityDeps, actor: Actor, query: unknown) {
  deps.authz.requirePlatform(actor, 'users.manage');
  const page = await deps.storage.users.list(PageQuery.parse(query));
  return { items: page.items.map(userView), nextCursor: page.nextCursor };
}

/**
 * Changes a user. Deactivating ends their sessions; their personal access tokens stop working while
 * they are inactive. The last active platform administrator cannot be deactivated or demoted.
 */
export async function patchUser(deps: IdentityDeps, actor: Actor, userId: string, input: unknown) {
  deps.authz.requirePlatform(actor, 'users.manage');
  const req = PatchUserInput.parse(input);
  if (req.password !== undefined) requireInteractiveSession(actor);
  const now = deps.clock.now().toISOString();
  const patch: UserPatch = { updatedAt: now };
  if (req.displayName !== undefined) patch.displayName = req.displayName;
  if (req.globalRole !== undefined) patch.globalRole = req.globalRole;
  if (req.isActive !== undefined) patch.isActive = req.isActive;
  if (req.email !== undefined) patch.email = req.email;
  if (req.password !== undefined) patch.passwordHash = await hashPassword(req.password);
  const updated = await deps.storage.transaction(async (tx) => {
    const current = await tx.users.findById(userId);
    if (!current) throw MarginError.notFound('User not found.');
    const losesAdmin =
      current.globalRole === 'platformAdmin' &&
      current.isActive &&
      (patch.isActive === false || (patch.globalRole !== undefined && patch.globalRole !== 'platformAdmin'));
    if (losesAdmin && (await tx.users.countActive('platformAdmin')) <= 1) {
      throw MarginError.conflict('The last active platform administrator cannot be deactivated or demoted.');
    }
    const next = await tx.users.update(userId, patch);
    if (patch.isActive === false || patch.passwordHash) await tx.refreshTokens.revokeAllForUser(userId, now);
    // A password set by an administrator lifts every lock on the username.
    if (patch.passwordHash) await tx.signInFailures.clear(current.username.toLowerCase());
    await deps.audit.record(tx, actor, {
      verb: 'updated',
      resourceType: 'user',
      resourceId: userId,
      // Names only: `password` says it was set, never what to.
      summary: `${changedFields(req)} of user '${current.username}'`,
    });
    return next as UserRecord;
  });
  forgetUser(deps, userId);
  return userView(updated);
}
