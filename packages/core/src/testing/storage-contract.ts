import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarginError } from '../errors.js';
import type { PersonalAccessTokenRecord } from '../identity/pat-record.js';
import type { RefreshTokenRecord } from '../identity/session-record.js';
import type { UserRecord } from '../identity/user-record.js';
import type { StorageV1 } from '../storage/storage-v1.js';
import { type ClientRecord, SYSTEM_TENANT_ID } from '../tenancy/tenancy-records.js';

export interface StorageUnderTest {
  storage: StorageV1;
  /** Closes the storage and removes whatever the run created (database, schema, files). */
  dispose(): Promise<void>;
}

/**
 * The behaviour every StorageV1 implementation must show. Each test gets a fresh, empty storage
 * from `open`, so tests never see each other's rows.
 */
export function describeStorageContract(name: string, open: () => Promise<StorageUnderTest>): void {
  describe(`storage contract: ${name}`, () => {
    let subject: StorageUnderTest;
    let storage: StorageV1;
    beforeEach(async () => {
      subject = await open();
      storage = subject.storage;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it('answers ping', async () => {
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    describe('users', () => {
      it('stores a user and reads it back by id and by username in any case', async () => {
        const u = user({ username: 'Ada.Lovelace' });
        await storage.users.insert(u);
        expect(await storage.users.findById(u.id)).toEqual(u);
        expect(await storage.users.findByUsername('ada.lovelace')).toEqual(u);
        expect(await storage.users.findByUsername('ADA.LOVELACE')).toEqual(u);
        expect(await storage.users.findById('00000000-0000-4000-8000-0000000000ff')).toBeUndefined();
        expect(await storage.users.findByUsername('nobody')).toBeUndefined();
      });

      it('reads several users by id in one call, skipping unknown ids', async () => {
        const [a, b] = [user(), user()];
        await storage.users.insert(a);
        await storage.users.insert(b);
        const found = await storage.users.findManyByIds([b.id, uuid(), a.id]);
        expect(found.map((u) => u.id).sort()).toEqual([a.id, b.id].sort());
        expect(await storage.users.findManyByIds([])).toEqual([]);
      });

      it('refuses a second user whose username differs only in case, as a conflict', async () => {
        await storage.users.insert(user({ username: 'grace' }));
        const error = await storage.users.insert(user({ username: 'GRACE' })).catch((e: unknown) => e);
        expect(MarginError.isInstance(error) && error.code).toBe('conflict');
      });

      it('updates only the given fields and returns the new record', async () => {
        const u = user({ username: 'linus' });
        await storage.users.insert(u);
        const updated = await storage.users.update(u.id, {
          displayName: 'Linus T.',
          isActive: false,
          lockedUntil: '2026-01-01T00:15:00.000Z',
          failedLoginCount: 5,
        });
        expect(updated).toEqual({
          ...u,
          displayName: 'Linus T.',
          isActive: false,
          lockedUntil: '2026-01-01T00:15:00.000Z',
          failedLoginCount: 5,
        });
        expect(await storage.users.findById(u.id)).toEqual(updated);
        expect(
          await storage.users.update('00000000-0000-4000-8000-0000000000ff', { displayName: 'x' }),
        ).toBeUndefined();
      });

      it('refuses renaming a user onto a taken username', async () => {
        const a = user({ username: 'alpha' });
        const b = user({ username: 'beta' });
        await storage.users.insert(a);
        await storage.users.insert(b);
        const error = await storage.users.update(b.id, { username: 'ALPHA' }).catch((e: unknown) => e);
        expect(MarginError.isInstance(error) && error.code).toBe('conflict');
        expect((await storage.users.findById(b.id))?.username).toBe('beta');
      });

      it('lists users oldest first in pages that neither skip nor repeat', async () => {
        const users = Array.from({ length: 5 }, (_, i) =>
          user({ username: `u${i}`, createdAt: `2026-01-01T00:00:0${i}.000Z` }),
        );
        for (const u of [...users].reverse()) await storage.users.insert(u);
        const first = await storage.users.list({ limit: 2 });
        expect(first.items.map((u) => u.username)).toEqual(['u0', 'u1']);
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await storage.users.list({ limit: 2, cursor: first.nextCursor });
        expect(second.items.map((u) => u.username)).toEqual(['u2', 'u3']);
        const third = await storage.users.list({ limit: 2, cursor: second.nextCursor });
        expect(third.items.map((u) => u.username)).toEqual(['u4']);
        expect(third.nextCursor).toBeNull();
      });

      it('counts active users per global role', async () => {
        await storage.users.insert(user({ username: 'a1', globalRole: 'platformAdmin' }));
        await storage.users.insert(user({ username: 'a2', globalRole: 'platformAdmin', isActive: false }));
        await storage.users.insert(user({ username: 'u1' }));
        expect(await storage.users.countActive('platformAdmin')).toBe(1);
        expect(await storage.users.countActive('user')).toBe(1);
      });
    });

    describe('refresh tokens', () => {
      it('finds a token by hash and lets only one refresh replace it', async () => {
        const u = user();
        await storage.users.insert(u);
        const t = refreshToken(u.id, 'fam-1');
        await storage.refreshTokens.insert(t);
        expect(await storage.refreshTokens.findByHash(t.tokenHash)).toEqual(t);
        expect(await storage.refreshTokens.markReplaced(t.id, 'next-1', LATER)).toBe(true);
        expect(await storage.refreshTokens.markReplaced(t.id, 'next-2', LATER)).toBe(false);
        expect(await storage.refreshTokens.findByHash(t.tokenHash)).toMatchObject({
          replacedById: 'next-1',
          revokedAt: LATER,
          lastUsedAt: LATER,
        });
      });

      it('revokes a whole family, or every token of a user, and nothing else', async () => {
        const [a, b] = [user(), user()];
        await storage.users.insert(a);
        await storage.users.insert(b);
        const [a1, a2, a3, b1] = [
          refreshToken(a.id, 'f1'),
          refreshToken(a.id, 'f1'),
          refreshToken(a.id, 'f2'),
          refreshToken(b.id, 'f3'),
        ];
        for (const t of [a1, a2, a3, b1]) await storage.refreshTokens.insert(t);
        await storage.refreshTokens.revokeFamily('f1', LATER);
        expect((await storage.refreshTokens.findByHash(a1.tokenHash))?.revokedAt).toBe(LATER);
        expect((await storage.refreshTokens.findByHash(a2.tokenHash))?.revokedAt).toBe(LATER);
        expect((await storage.refreshTokens.findByHash(a3.tokenHash))?.revokedAt).toBeNull();
        await storage.refreshTokens.revokeAllForUser(a.id, LATER);
        expect((await storage.refreshTokens.findByHash(a3.tokenHash))?.revokedAt).toBe(LATER);
        expect((await storage.refreshTokens.findByHash(b1.tokenHash))?.revokedAt).toBeNull();
      });
    });

    describe('personal access tokens', () => {
      it('lists a user’s unrevoked tokens newest first and revokes only the owner’s', async () => {
        const [a, b] = [user(), user()];
        await storage.users.insert(a);
        await storage.users.insert(b);
        const older = pat(a.id, '2026-01-01T00:00:00.000Z');
        const newer = pat(a.id, '2026-01-02T00:00:00.000Z');
        const others = pat(b.id, '2026-01-03T00:00:00.000Z');
        for (const t of [older, newer, others]) await storage.personalAccessTokens.insert(t);
        expect(await storage.personalAccessTokens.findByHash(newer.tokenHash)).toEqual(newer);
        expect((await storage.personalAccessTokens.listForUser(a.id)).map((t) => t.id)).toEqual([newer.id, older.id]);
        expect(await storage.personalAccessTokens.revoke(b.id, older.id, LATER)).toBe(false);
        expect(await storage.personalAccessTokens.revoke(a.id, older.id, LATER)).toBe(true);
        expect(await storage.personalAccessTokens.revoke(a.id, older.id, LATER)).toBe(false);
        expect((await storage.personalAccessTokens.listForUser(a.id)).map((t) => t.id)).toEqual([newer.id]);
        await storage.personalAccessTokens.touch(newer.id, LATER);
        expect((await storage.personalAccessTokens.findByHash(newer.tokenHash))?.lastUsedAt).toBe(LATER);
      });
    });

    describe('tenants and clients', () => {
      it('has the System tenant from the start and stores further tenants', async () => {
        expect(await storage.tenants.findById(SYSTEM_TENANT_ID)).toMatchObject({ displayName: 'System' });
        const t = { id: uuid(), displayName: 'Acme', createdAt: LATER, updatedAt: LATER };
        await storage.tenants.insert(t);
        expect((await storage.tenants.list()).map((x) => x.id)).toEqual([SYSTEM_TENANT_ID, t.id]);
        expect(await storage.tenants.update(t.id, { displayName: 'Acme Corp', updatedAt: LATER })).toMatchObject({
          displayName: 'Acme Corp',
        });
      });

      it('keeps client names unique per tenant regardless of case', async () => {
        const other = { id: uuid(), displayName: 'Other', createdAt: NOW, updatedAt: NOW };
        await storage.tenants.insert(other);
        const c = client({ displayName: 'Payments' });
        await storage.clients.insert(c);
        const error = await storage.clients.insert(client({ displayName: 'PAYMENTS' })).catch((e: unknown) => e);
        expect(MarginError.isInstance(error) && error.code).toBe('conflict');
        await storage.clients.insert(client({ displayName: 'payments', tenantId: other.id }));
        const second = client({ displayName: 'Billing' });
        await storage.clients.insert(second);
        const rename = await storage.clients.update(second.id, { displayName: 'payments' }).catch((e: unknown) => e);
        expect(MarginError.isInstance(rename) && rename.code).toBe('conflict');
        expect(await storage.clients.update(c.id, { isActive: false, updatedAt: LATER })).toMatchObject({
          isActive: false,
          updatedAt: LATER,
        });
      });

      it('reads a client with the caller’s client and tenant roles in one call', async () => {
        const [u, stranger] = [user(), user()];
        await storage.users.insert(u);
        await storage.users.insert(stranger);
        const c = client();
        await storage.clients.insert(c);
        await storage.memberships.putClientMember({ clientId: c.id, userId: u.id, role: 'ClientUser', createdAt: NOW });
        await storage.memberships.putTenantMember({
          tenantId: SYSTEM_TENANT_ID,
          userId: u.id,
          role: 'TenantAdministrator',
          createdAt: NOW,
        });
        expect(await storage.clients.findAccess(c.id, u.id)).toEqual({
          client: c,
          clientRole: 'ClientUser',
          tenantRole: 'TenantAdministrator',
        });
        expect(await storage.clients.findAccess(c.id, stranger.id)).toEqual({
          client: c,
          clientRole: undefined,
          tenantRole: undefined,
        });
        expect(await storage.clients.findAccess(uuid(), u.id)).toBeUndefined();
      });

      it('lists clients by visibility and tenant, in pages', async () => {
        const acme = { id: uuid(), displayName: 'Acme', createdAt: NOW, updatedAt: NOW };
        await storage.tenants.insert(acme);
        const [c1, c2, c3] = [
          client({ createdAt: '2026-01-01T00:00:01.000Z' }),
          client({ createdAt: '2026-01-01T00:00:02.000Z' }),
          client({ createdAt: '2026-01-01T00:00:03.000Z', tenantId: acme.id }),
        ];
        for (const c of [c1, c2, c3]) await storage.clients.insert(c);
        const all = await storage.clients.list({}, { limit: 2 });
        expect(all.items.map((c) => c.id)).toEqual([c1.id, c2.id]);
        expect((await storage.clients.list({}, { limit: 2, cursor: all.nextCursor })).items.map((c) => c.id)).toEqual([
          c3.id,
        ]);
        const visible = await storage.clients.list(
          { visibility: { clientIds: [c2.id], tenantIds: [acme.id] } },
          { limit: 10 },
        );
        expect(visible.items.map((c) => c.id)).toEqual([c2.id, c3.id]);
        const systemOnly = await storage.clients.list({ withinTenants: [SYSTEM_TENANT_ID] }, { limit: 10 });
        expect(systemOnly.items.map((c) => c.id)).toEqual([c1.id, c2.id]);
        const nothing = await storage.clients.list({ visibility: { clientIds: [], tenantIds: [] } }, { limit: 10 });
        expect(nothing.items).toEqual([]);
      });

      it('stores memberships, changes a role in place and removes it', async () => {
        const u = user();
        await storage.users.insert(u);
        const c = client();
        await storage.clients.insert(c);
        await storage.memberships.putClientMember({ clientId: c.id, userId: u.id, role: 'ClientUser', createdAt: NOW });
        await storage.memberships.putClientMember({
          clientId: c.id,
          userId: u.id,
          role: 'ClientAdministrator',
          createdAt: LATER,
        });
        expect(await storage.memberships.listClientMembers(c.id)).toEqual([
          { clientId: c.id, userId: u.id, role: 'ClientAdministrator', createdAt: NOW },
        ]);
        await storage.memberships.putTenantMember({
          tenantId: SYSTEM_TENANT_ID,
          userId: u.id,
          role: 'TenantUser',
          createdAt: NOW,
        });
        expect(await storage.memberships.forUser(u.id)).toEqual({
          clients: [{ clientId: c.id, userId: u.id, role: 'ClientAdministrator', createdAt: NOW }],
          tenants: [{ tenantId: SYSTEM_TENANT_ID, userId: u.id, role: 'TenantUser', createdAt: NOW }],
        });
        expect(await storage.memberships.removeClientMember(c.id, u.id)).toBe(true);
        expect(await storage.memberships.removeClientMember(c.id, u.id)).toBe(false);
        expect(await storage.memberships.removeTenantMember(SYSTEM_TENANT_ID, u.id)).toBe(true);
        expect(await storage.memberships.listTenantMembers(SYSTEM_TENANT_ID)).toEqual([]);
      });
    });

    describe('settings', () => {
      it('returns undefined for a missing key and round-trips JSON values', async () => {
        expect(await storage.settings.get('edition')).toBeUndefined();
        const value = { edition: 'Commercial', overrides: [{ capability: 'crawl-configs', state: 'enabled' }], n: 3 };
        await storage.settings.put('licensing', value, NOW);
        expect(await storage.settings.get('licensing')).toEqual(value);
        await storage.settings.put('licensing', { edition: 'Community' }, NOW);
        expect(await storage.settings.get('licensing')).toEqual({ edition: 'Community' });
      });
    });

    describe('transactions', () => {
      it('commits every write of a successful transaction and returns its value', async () => {
        const u = user({ username: 'tx-ok' });
        const result = await storage.transaction(async (tx) => {
          await tx.users.insert(u);
          await tx.settings.put('k', 1, NOW);
          return 'done';
        });
        expect(result).toBe('done');
        expect(await storage.users.findById(u.id)).toEqual(u);
        expect(await storage.settings.get('k')).toBe(1);
      });

      it('rolls back every write when the transaction throws', async () => {
        const u = user({ username: 'tx-fail' });
        await expect(
          storage.transaction(async (tx) => {
            await tx.users.insert(u);
            await tx.settings.put('k', 1, NOW);
            throw new Error('boom');
          }),
        ).rejects.toThrow('boom');
        expect(await storage.users.findById(u.id)).toBeUndefined();
        expect(await storage.settings.get('k')).toBeUndefined();
      });

      it('sees its own writes before commit', async () => {
        await storage.transaction(async (tx) => {
          await tx.settings.put('k', 'v', NOW);
          expect(await tx.settings.get('k')).toBe('v');
        });
      });

      it('loses no update when concurrent transactions read and write the same row', async () => {
        await storage.settings.put('counter', 0, NOW);
        await Promise.all(
          Array.from({ length: 8 }, () =>
            storage.transaction(async (tx) => {
              const current = (await tx.settings.get('counter')) as number;
              await tx.settings.put('counter', current + 1, NOW);
            }),
          ),
        );
        expect(await storage.settings.get('counter')).toBe(8);
      });
    });
  });
}

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-01T01:00:00.000Z';
let sequence = 0;

function uuid(): string {
  sequence++;
  return `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`;
}

function refreshToken(userId: string, familyId: string): RefreshTokenRecord {
  const id = uuid();
  return {
    id,
    userId,
    familyId,
    tokenHash: id.replace(/-/g, '').padEnd(64, 'a'),
    createdAt: NOW,
    expiresAt: '2026-01-04T00:00:00.000Z',
    lastUsedAt: NOW,
    replacedById: null,
    revokedAt: null,
  };
}

function pat(userId: string, createdAt: string): PersonalAccessTokenRecord {
  const id = uuid();
  return {
    id,
    userId,
    label: `token ${id}`,
    tokenHash: id.replace(/-/g, '').padEnd(64, 'b'),
    createdAt,
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
  };
}

function client(overrides: Partial<ClientRecord> = {}): ClientRecord {
  const id = uuid();
  return {
    id,
    tenantId: SYSTEM_TENANT_ID,
    displayName: `Client ${id}`,
    isActive: true,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

function user(overrides: Partial<UserRecord> = {}): UserRecord {
  sequence++;
  return {
    id: `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`,
    username: `user${sequence}`,
    displayName: `User ${sequence}`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    globalRole: 'user',
    isActive: true,
    failedLoginCount: 0,
    lockoutCount: 0,
    lockedUntil: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}
