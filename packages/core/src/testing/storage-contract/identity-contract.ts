import { describe, expect, it } from 'vitest';
import type { IdentityProviderRecord } from '../../identity/index.js';
import { MarginError, SYSTEM_TENANT_ID } from '../../kernel/index.js';
import { client, LATER, NOW, pat, refreshToken, type StorageGetter, tenant, user, uuid } from './fixtures.js';

export function identityAndTenancyContract(storage: StorageGetter): void {
  describe('refresh tokens', () => {
    it('finds a token by hash and lets only one refresh replace it', async () => {
      const u = user();
      await storage().users.insert(u);
      const t = refreshToken(u.id, 'fam-1');
      await storage().refreshTokens.insert(t);
      expect(await storage().refreshTokens.findByHash(t.tokenHash)).toEqual(t);
      expect(await storage().refreshTokens.markReplaced(t.id, 'next-1', LATER)).toBe(true);
      expect(await storage().refreshTokens.markReplaced(t.id, 'next-2', LATER)).toBe(false);
      expect(await storage().refreshTokens.findByHash(t.tokenHash)).toMatchObject({
        replacedById: 'next-1',
        revokedAt: LATER,
        lastUsedAt: LATER,
      });
    });

    it('revokes a whole family, or every token of a user, and nothing else', async () => {
      const [a, b] = [user(), user()];
      await storage().users.insert(a);
      await storage().users.insert(b);
      const [a1, a2, a3, b1] = [
        refreshToken(a.id, 'f1'),
        refreshToken(a.id, 'f1'),
        refreshToken(a.id, 'f2'),
        refreshToken(b.id, 'f3'),
      ];
      for (const t of [a1, a2, a3, b1]) await storage().refreshTokens.insert(t);
      await storage().refreshTokens.revokeFamily('f1', LATER);
      expect((await storage().refreshTokens.findByHash(a1.tokenHash))?.revokedAt).toBe(LATER);
      expect((await storage().refreshTokens.findByHash(a2.tokenHash))?.revokedAt).toBe(LATER);
      expect((await storage().refreshTokens.findByHash(a3.tokenHash))?.revokedAt).toBeNull();
      await storage().refreshTokens.revokeAllForUser(a.id, LATER);
      expect((await storage().refreshTokens.findByHash(a3.tokenHash))?.revokedAt).toBe(LATER);
      expect((await storage().refreshTokens.findByHash(b1.tokenHash))?.revokedAt).toBeNull();
    });
  });

  describe('sign-in failures', () => {
    const record = (usernameKey: string, source: string, lastFailureAt: string) => ({
      usernameKey,
      source,
      failures: 2,
      lockouts: 1,
      lockedUntil: null,
      lastFailureAt,
    });

    it('keeps one record per username and source, replaced by put, cleared by source or whole', async () => {
      const repo = storage().signInFailures;
      await repo.put(record('mallory', '10.0.0.1', NOW));
      await repo.put(record('mallory', '*', NOW));
      await repo.put({ ...record('mallory', '10.0.0.1', LATER), failures: 0, lockedUntil: LATER });
      await repo.put(record('trent', '10.0.0.1', NOW));
      expect(await repo.find('mallory', ['10.0.0.1', '*', '10.0.0.2'])).toEqual(
        expect.arrayContaining([
          { ...record('mallory', '10.0.0.1', LATER), failures: 0, lockedUntil: LATER },
          record('mallory', '*', NOW),
        ]),
      );
      expect(await repo.find('mallory', ['10.0.0.2'])).toEqual([]);
      await repo.clear('mallory', '10.0.0.1');
      expect((await repo.find('mallory', ['10.0.0.1', '*'])).map((r) => r.source)).toEqual(['*']);
      await repo.clear('mallory');
      expect(await repo.find('mallory', ['*'])).toEqual([]);
      expect(await repo.find('trent', ['10.0.0.1'])).toHaveLength(1);
    });

    it('deletes records whose last failure is older than a time, in bounded batches', async () => {
      const repo = storage().signInFailures;
      for (const source of ['a', 'b', 'c']) await repo.put(record('stale-user', source, '2025-01-01T00:00:00.000Z'));
      await repo.put(record('stale-user', 'fresh', LATER));
      expect(await repo.deleteStale(NOW, 2)).toBe(2);
      expect(await repo.deleteStale(NOW, 10)).toBe(1);
      expect((await repo.find('stale-user', ['a', 'b', 'c', 'fresh'])).map((r) => r.source)).toEqual(['fresh']);
    });
  });

  describe('personal access tokens', () => {
    it('lists a user’s unrevoked tokens newest first and revokes only the owner’s', async () => {
      const [a, b] = [user(), user()];
      await storage().users.insert(a);
      await storage().users.insert(b);
      const older = pat(a.id, '2026-01-01T00:00:00.000Z');
      const newer = pat(a.id, '2026-01-02T00:00:00.000Z');
      const others = pat(b.id, '2026-01-03T00:00:00.000Z');
      for (const t of [older, newer, others]) await storage().personalAccessTokens.insert(t);
      expect(await storage().personalAccessTokens.findByHash(newer.tokenHash)).toEqual(newer);
      const listed = (page: { limit: number; cursor?: string | null }) =>
        storage().personalAccessTokens.listForUser(a.id, NOW, page);
      expect((await listed({ limit: 10 })).items.map((t) => t.id)).toEqual([newer.id, older.id]);
      const first = await listed({ limit: 1 });
      expect(first.items.map((t) => t.id)).toEqual([newer.id]);
      expect((await listed({ limit: 1, cursor: first.nextCursor })).items.map((t) => t.id)).toEqual([older.id]);
      const expiring = pat(a.id, '2026-01-03T00:00:00.000Z');
      await storage().personalAccessTokens.insert({ ...expiring, expiresAt: NOW });
      expect((await listed({ limit: 10 })).items.map((t) => t.id)).toEqual([newer.id, older.id]);
      expect(await storage().personalAccessTokens.revoke(b.id, older.id, LATER)).toBe(false);
      expect(await storage().personalAccessTokens.revoke(a.id, older.id, LATER)).toBe(true);
      expect(await storage().personalAccessTokens.revoke(a.id, older.id, LATER)).toBe(false);
      expect((await listed({ limit: 10 })).items.map((t) => t.id)).toEqual([newer.id]);
      await storage().personalAccessTokens.touch(newer.id, LATER);
      expect((await storage().personalAccessTokens.findByHash(newer.tokenHash))?.lastUsedAt).toBe(LATER);
    });
  });

  describe('tenants and clients', () => {
    it('has the System tenant from the start and stores further tenants', async () => {
      expect(await storage().tenants.findById(SYSTEM_TENANT_ID)).toMatchObject({ displayName: 'System' });
      const t = tenant({ displayName: 'Acme', createdAt: LATER, updatedAt: LATER });
      await storage().tenants.insert(t);
      expect((await storage().tenants.list()).map((x) => x.id)).toEqual([SYSTEM_TENANT_ID, t.id]);
      expect(await storage().tenants.update(t.id, { displayName: 'Acme Corp', updatedAt: LATER })).toMatchObject({
        displayName: 'Acme Corp',
      });
    });

    it('finds a tenant by its unique slug and stores its state and login policy', async () => {
      expect(await storage().tenants.findBySlug('system')).toMatchObject({
        id: SYSTEM_TENANT_ID,
        isActive: true,
        loginPolicy: 'localAndSso',
      });
      const t = tenant({ slug: 'acme' });
      await storage().tenants.insert(t);
      expect(await storage().tenants.findBySlug('acme')).toEqual(t);
      expect(await storage().tenants.findBySlug('nobody')).toBeUndefined();
      const dup = await storage()
        .tenants.insert(tenant({ slug: 'acme' }))
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(dup) && dup.code).toBe('conflict');
      expect(await storage().tenants.update(t.id, { isActive: false, loginPolicy: 'ssoOnly' })).toEqual({
        ...t,
        isActive: false,
        loginPolicy: 'ssoOnly',
      });
    });

    it('keeps client names unique per tenant regardless of case', async () => {
      const other = tenant({ displayName: 'Other' });
      await storage().tenants.insert(other);
      const c = client({ displayName: 'Payments' });
      await storage().clients.insert(c);
      const error = await storage()
        .clients.insert(client({ displayName: 'PAYMENTS' }))
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(error) && error.code).toBe('conflict');
      await storage().clients.insert(client({ displayName: 'payments', tenantId: other.id }));
      const second = client({ displayName: 'Billing' });
      await storage().clients.insert(second);
      const rename = await storage()
        .clients.update(second.id, { displayName: 'payments' })
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(rename) && rename.code).toBe('conflict');
      expect(await storage().clients.update(c.id, { isActive: false, updatedAt: LATER })).toMatchObject({
        isActive: false,
        updatedAt: LATER,
      });
    });

    it('reads a client with the caller’s client and tenant roles in one call', async () => {
      const [u, stranger] = [user(), user()];
      await storage().users.insert(u);
      await storage().users.insert(stranger);
      const c = client();
      await storage().clients.insert(c);
      await storage().memberships.putClientMember({ clientId: c.id, userId: u.id, role: 'ClientUser', createdAt: NOW });
      await storage().memberships.putTenantMember({
        tenantId: SYSTEM_TENANT_ID,
        userId: u.id,
        role: 'TenantAdministrator',
        createdAt: NOW,
      });
      expect(await storage().clients.findAccess(c.id, u.id)).toEqual({
        client: c,
        tenantIsActive: true,
        clientRole: 'ClientUser',
        tenantRole: 'TenantAdministrator',
      });
      expect(await storage().clients.findAccess(c.id, stranger.id)).toEqual({
        client: c,
        tenantIsActive: true,
        clientRole: undefined,
        tenantRole: undefined,
      });
      expect(await storage().clients.findAccess(uuid(), u.id)).toBeUndefined();
      const closed = tenant({ isActive: false });
      await storage().tenants.insert(closed);
      const inClosed = client({ tenantId: closed.id });
      await storage().clients.insert(inClosed);
      expect((await storage().clients.findAccess(inClosed.id, u.id))?.tenantIsActive).toBe(false);
    });

    it('lists clients by visibility and tenant, in pages', async () => {
      const acme = tenant({ displayName: 'Acme' });
      await storage().tenants.insert(acme);
      const [c1, c2, c3] = [
        client({ createdAt: '2026-01-01T00:00:01.000Z' }),
        client({ createdAt: '2026-01-01T00:00:02.000Z' }),
        client({ createdAt: '2026-01-01T00:00:03.000Z', tenantId: acme.id }),
      ];
      for (const c of [c1, c2, c3]) await storage().clients.insert(c);
      const all = await storage().clients.list({}, { limit: 2 });
      expect(all.items.map((c) => c.id)).toEqual([c1.id, c2.id]);
      expect((await storage().clients.list({}, { limit: 2, cursor: all.nextCursor })).items.map((c) => c.id)).toEqual([
        c3.id,
      ]);
      const visible = await storage().clients.list(
        { visibility: { clientIds: [c2.id], tenantIds: [acme.id] } },
        { limit: 10 },
      );
      expect(visible.items.map((c) => c.id)).toEqual([c2.id, c3.id]);
      const systemOnly = await storage().clients.list({ withinTenants: [SYSTEM_TENANT_ID] }, { limit: 10 });
      expect(systemOnly.items.map((c) => c.id)).toEqual([c1.id, c2.id]);
      const nothing = await storage().clients.list({ visibility: { clientIds: [], tenantIds: [] } }, { limit: 10 });
      expect(nothing.items).toEqual([]);
    });

    it('stores memberships, changes a role in place and removes it', async () => {
      const u = user();
      await storage().users.insert(u);
      const c = client();
      await storage().clients.insert(c);
      await storage().memberships.putClientMember({ clientId: c.id, userId: u.id, role: 'ClientUser', createdAt: NOW });
      await storage().memberships.putClientMember({
        clientId: c.id,
        userId: u.id,
        role: 'ClientAdministrator',
        createdAt: LATER,
      });
      expect(await storage().memberships.listClientMembers(c.id, { limit: 10 })).toEqual({
        items: [{ clientId: c.id, userId: u.id, role: 'ClientAdministrator', createdAt: NOW }],
        nextCursor: null,
      });
      expect(await storage().memberships.findClientMember(c.id, u.id)).toMatchObject({ role: 'ClientAdministrator' });
      const second = user();
      await storage().users.insert(second);
      await storage().memberships.putClientMember({
        clientId: c.id,
        userId: second.id,
        role: 'ClientUser',
        createdAt: LATER,
      });
      const page = await storage().memberships.listClientMembers(c.id, { limit: 1 });
      expect(page.items.map((m) => m.userId)).toEqual([u.id]);
      const rest = await storage().memberships.listClientMembers(c.id, { limit: 1, cursor: page.nextCursor });
      expect(rest).toEqual({ items: [expect.objectContaining({ userId: second.id })], nextCursor: null });
      await storage().memberships.removeClientMember(c.id, second.id);
      await storage().memberships.putTenantMember({
        tenantId: SYSTEM_TENANT_ID,
        userId: u.id,
        role: 'TenantUser',
        createdAt: NOW,
      });
      expect(await storage().memberships.forUser(u.id)).toEqual({
        clients: [{ clientId: c.id, userId: u.id, role: 'ClientAdministrator', createdAt: NOW }],
        tenants: [{ tenantId: SYSTEM_TENANT_ID, userId: u.id, role: 'TenantUser', createdAt: NOW }],
      });
      expect(await storage().memberships.removeClientMember(c.id, u.id)).toBe(true);
      expect(await storage().memberships.removeClientMember(c.id, u.id)).toBe(false);
      expect(await storage().memberships.removeTenantMember(SYSTEM_TENANT_ID, u.id)).toBe(true);
      expect(await storage().memberships.listTenantMembers(SYSTEM_TENANT_ID, { limit: 10 })).toEqual({
        items: [],
        nextCursor: null,
      });
      expect(await storage().memberships.findTenantMember(SYSTEM_TENANT_ID, u.id)).toBeUndefined();
    });
  });

  describe('identity providers and linked identities', () => {
    const provider = (tenantId: string, overrides: Partial<IdentityProviderRecord> = {}): IdentityProviderRecord => ({
      id: uuid(),
      tenantId,
      displayName: 'Acme SSO',
      issuerUrl: 'https://login.example.com/acme',
      clientId: 'margin',
      sealedClientSecret: 'v2:sealed',
      allowedEmailDomains: ['acme.example', 'acme.test'],
      autoCreateUsers: false,
      defaultClientRole: 'none',
      isEnabled: true,
      createdAt: NOW,
      updatedAt: NOW,
      ...overrides,
    });

    it('stores a tenant’s providers, lists them oldest first per tenant, patches and deletes them', async () => {
      const [acme, other] = [tenant(), tenant()];
      await storage().tenants.insert(acme);
      await storage().tenants.insert(other);
      const first = provider(acme.id, { createdAt: '2026-01-01T00:00:01.000Z' });
      const second = provider(acme.id, { createdAt: '2026-01-01T00:00:02.000Z', sealedClientSecret: null });
      const elsewhere = provider(other.id);
      for (const p of [second, elsewhere, first]) await storage().identityProviders.insert(p);
      expect(await storage().identityProviders.findById(first.id)).toEqual(first);
      const page = await storage().identityProviders.listForTenant(acme.id, { limit: 1 });
      expect(page.items).toEqual([first]);
      const rest = await storage().identityProviders.listForTenant(acme.id, { limit: 1, cursor: page.nextCursor });
      expect(rest.items).toEqual([second]);
      expect(rest.nextCursor).toBeNull();
      const patched = await storage().identityProviders.update(first.id, {
        allowedEmailDomains: ['acme.example'],
        sealedClientSecret: null,
        isEnabled: false,
        autoCreateUsers: true,
        defaultClientRole: 'ClientUser',
        updatedAt: LATER,
      });
      expect(patched).toEqual({
        ...first,
        allowedEmailDomains: ['acme.example'],
        sealedClientSecret: null,
        isEnabled: false,
        autoCreateUsers: true,
        defaultClientRole: 'ClientUser',
        updatedAt: LATER,
      });
      expect(await storage().identityProviders.delete(first.id)).toBe(true);
      expect(await storage().identityProviders.delete(first.id)).toBe(false);
      expect(await storage().identityProviders.findById(first.id)).toBeUndefined();
      expect(await storage().identityProviders.update(first.id, { displayName: 'x' })).toBeUndefined();
    });

    it('links one user per (issuer, subject)', async () => {
      const [a, b] = [user(), user()];
      await storage().users.insert(a);
      await storage().users.insert(b);
      const link = {
        id: uuid(),
        userId: a.id,
        identityProviderId: uuid(),
        issuer: 'https://login.example.com/acme',
        subject: 'sub-1',
        createdAt: NOW,
      };
      await storage().userIdentities.insert(link);
      expect(await storage().userIdentities.find(link.issuer, 'sub-1')).toEqual(link);
      expect(await storage().userIdentities.find('https://other.example.com', 'sub-1')).toBeUndefined();
      const again = await storage()
        .userIdentities.insert({ ...link, id: uuid(), userId: b.id })
        .catch((e: unknown) => e);
      expect(MarginError.isInstance(again) && again.code).toBe('conflict');
    });
  });
}
