import { type Actor, MarginError, PageQuery, requireInteractiveSession } from '../kernel/index.js';
import type { IdentityDeps } from './identity-deps.js';
import type { PersonalAccessTokenRecord } from './pat-record.js';
import { CreatePatInput } from './schemas.js';
import { newPersonalAccessToken, sha256Hex } from './tokens.js';

const view = (t: PersonalAccessTokenRecord) => ({
  id: t.id,
  label: t.label,
  expiresAt: t.expiresAt,
  createdAt: t.createdAt,
  lastUsedAt: t.lastUsedAt,
});

/** Creates a token for the caller; the plaintext is in this answer and nowhere else, ever. */
export async function createPersonalAccessToken(deps: IdentityDeps, actor: Actor, input: unknown) {
  requireInteractiveSession(actor);
  const { label, expiresAt } = CreatePatInput.parse(input);
  const now = deps.clock.now();
  const expires = expiresAt ? new Date(expiresAt).toISOString() : null;
  if (expires && expires <= now.toISOString()) {
    throw MarginError.validation('expiresAt must be in the future.', [
      { path: 'expiresAt', message: 'Must be in the future.' },
    ]);
  }
  const token = newPersonalAccessToken(deps.ids);
  const record: PersonalAccessTokenRecord = {
    id: deps.ids.uuid(),
    userId: actor.userId,
    label,
    tokenHash: sha256Hex(token),
    createdAt: now.toISOString(),
    expiresAt: expires,
    lastUsedAt: null,
    revokedAt: null,
  };
  await deps.storage.personalAccessTokens.insert(record);
  return { id: record.id, label, token, expiresAt: expires, createdAt: record.createdAt };
}

/** The caller's usable tokens (not revoked, not expired), without any token material, a page at a time. */
export async function listPersonalAccessTokens(deps: IdentityDeps, actor: Actor, query: unknown) {
  requireInteractiveSession(actor);
  const page = PageQuery.parse(query);
  const now = deps.clock.now().toISOString();
  const tokens = await deps.storage.personalAccessTokens.listForUser(actor.userId, now, page);
  return { items: tokens.items.map(view), nextCursor: tokens.nextCursor };
}

export async function revokePersonalAccessToken(deps: IdentityDeps, actor: Actor, patId: string): Promise<void> {
  requireInteractiveSession(actor);
  const revoked = await deps.storage.personalAccessTokens.revoke(actor.userId, patId, deps.clock.now().toISOString());
  if (!revoked) throw MarginError.notFound('Personal access token not found.');
}
