import { describe, expect, it } from 'vitest';
import { MarginError } from '../../kernel/index.js';
import type { ProviderConnectionRecord, ProviderScopeRecord, ReviewerIdentityRecord } from '../../scm/index.js';
import { client, LATER, NOW, type StorageGetter, uuid } from './fixtures.js';

function connection(clientId: string, overrides: Partial<ProviderConnectionRecord> = {}): ProviderConnectionRecord {
  const id = uuid();
  const hostBaseUrl = overrides.hostBaseUrl ?? `https://git-${id.slice(-6)}.example`;
  return {
    id,
    clientId,
    providerFamily: 'gitHostA',
    authenticationKind: 'personalAccessToken',
    hostBaseUrl,
    hostKey: hostBaseUrl.toLowerCase(),
    displayName: `Connection ${id}`,
    isActive: true,
    oAuthTenantId: null,
    oAuthClientId: null,
    hostedAppId: null,
    hostedAppInstallationId: null,
    sealedSecret: 'v1:c2VhbGVk',
    verificationStatus: 'neverVerified',
    lastVerifiedAt: null,
    lastVerificationError: null,
    lastVerificationFailureCategory: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

function scope(c: ProviderConnectionRecord, overrides: Partial<ProviderScopeRecord> = {}): ProviderScopeRecord {
  const id = uuid();
  const scopePath = overrides.scopePath ?? `${c.hostBaseUrl}/org-${id.slice(-6)}`;
  return {
    id,
    connectionId: c.id,
    clientId: c.clientId,
    scopeType: 'organization',
    externalScopeId: null,
    scopePath,
    scopePathKey: scopePath.toLowerCase(),
    displayName: `Scope ${id}`,
    isEnabled: true,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

function identity(
  c: ProviderConnectionRecord,
  overrides: Partial<ReviewerIdentityRecord> = {},
): ReviewerIdentityRecord {
  return {
    connectionId: c.id,
    clientId: c.clientId,
    externalUserId: '7310001',
    login: 'margin-bot',
    displayName: 'Margin Review Bot',
    isBot: true,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

async function conflictOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return MarginError.isInstance(error) ? error.code : String(error);
}

const at = (minute: number) => `2026-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

export function scmStorageContract(storage: StorageGetter): void {
  describe('provider connections', () => {
    it('round-trips every field, including nulls and large GitHub App ids', async () => {
      const c = client();
      await storage().clients.insert(c);
      const plain = connection(c.id);
      const app = connection(c.id, {
        authenticationKind: 'appInstallation',
        hostedAppId: 3_000_000_001,
        hostedAppInstallationId: 98_765_432_101,
        displayName: 'GitHub App',
        isActive: false,
        verificationStatus: 'failed',
        lastVerifiedAt: LATER,
        lastVerificationError: 'Bad credentials',
        lastVerificationFailureCategory: 'credentials',
      });
      const entra = connection(c.id, {
        providerFamily: 'suiteDevOps',
        authenticationKind: 'oauthClientCredentials',
        oAuthTenantId: 'tenant-1',
        oAuthClientId: 'client-1',
      });
      for (const x of [plain, app, entra]) await storage().providerConnections.insert(x);
      expect(await storage().providerConnections.findById(plain.id)).toEqual(plain);
      expect(await storage().providerConnections.findById(app.id)).toEqual(app);
      expect(await storage().providerConnections.findById(entra.id)).toEqual(entra);
      expect(await storage().providerConnections.findById(uuid())).toBeUndefined();
    });

    it('allows one connection per client, family and host key', async () => {
      const [a, b] = [client(), client()];
      await storage().clients.insert(a);
      await storage().clients.insert(b);
      const first = connection(a.id, { hostBaseUrl: 'https://github.com', hostKey: 'https://github.com' });
      await storage().providerConnections.insert(first);
      expect(await conflictOf(storage().providerConnections.insert({ ...first, id: uuid() }))).toBe('conflict');
      // Another family on the same host, and the same host for another client, are fine.
      await storage().providerConnections.insert({ ...first, id: uuid(), providerFamily: 'gitHostB' });
      await storage().providerConnections.insert({ ...first, id: uuid(), clientId: b.id });
      expect(await storage().providerConnections.countForClient(a.id)).toBe(2);
      expect(await storage().providerConnections.countForClient(b.id)).toBe(1);
      expect(await storage().providerConnections.countForClient(uuid())).toBe(0);
    });

    it('updates the given fields only, refuses a colliding host key, and says when nothing matched', async () => {
      const c = client();
      await storage().clients.insert(c);
      const x = connection(c.id);
      const y = connection(c.id);
      await storage().providerConnections.insert(x);
      await storage().providerConnections.insert(y);
      const updated = await storage().providerConnections.update(x.id, {
        displayName: 'Renamed',
        isActive: false,
        hostedAppId: null,
        verificationStatus: 'verified',
        lastVerifiedAt: LATER,
        updatedAt: LATER,
      });
      expect(updated).toEqual({
        ...x,
        displayName: 'Renamed',
        isActive: false,
        verificationStatus: 'verified',
        lastVerifiedAt: LATER,
        updatedAt: LATER,
      });
      expect(await storage().providerConnections.findById(x.id)).toEqual(updated);
      const collide = storage().providerConnections.update(y.id, { hostBaseUrl: x.hostBaseUrl, hostKey: x.hostKey });
      expect(await conflictOf(collide)).toBe('conflict');
      expect(await storage().providerConnections.findById(y.id)).toEqual(y);
      expect(await storage().providerConnections.update(uuid(), { displayName: 'x' })).toBeUndefined();
    });

    it('lists a client’s connections oldest first, a page at a time', async () => {
      const [c, other] = [client(), client()];
      await storage().clients.insert(c);
      await storage().clients.insert(other);
      const rows = [3, 1, 2, 2].map((m) => connection(c.id, { createdAt: at(m) }));
      for (const r of rows) await storage().providerConnections.insert(r);
      await storage().providerConnections.insert(connection(other.id));
      const expected = [...rows]
        .sort((p, q) => p.createdAt.localeCompare(q.createdAt) || p.id.localeCompare(q.id))
        .map((r) => r.id);
      const first = await storage().providerConnections.listForClient(c.id, { limit: 3 });
      expect(first.items.map((r) => r.id)).toEqual(expected.slice(0, 3));
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await storage().providerConnections.listForClient(c.id, { limit: 3, cursor: first.nextCursor });
      expect(second.items.map((r) => r.id)).toEqual(expected.slice(3));
      expect(second.nextCursor).toBeNull();
    });

    it('deletes a connection with its scopes and reviewer identity, and nothing else', async () => {
      const c = client();
      await storage().clients.insert(c);
      const [gone, kept] = [connection(c.id), connection(c.id)];
      await storage().providerConnections.insert(gone);
      await storage().providerConnections.insert(kept);
      const [goneScope, keptScope] = [scope(gone), scope(kept)];
      await storage().providerScopes.insert(goneScope);
      await storage().providerScopes.insert(keptScope);
      await storage().reviewerIdentities.put(identity(gone));
      await storage().reviewerIdentities.put(identity(kept));
      expect(await storage().providerConnections.delete(gone.id)).toBe(true);
      expect(await storage().providerConnections.delete(gone.id)).toBe(false);
      expect(await storage().providerConnections.findById(gone.id)).toBeUndefined();
      expect(await storage().providerScopes.findById(goneScope.id)).toBeUndefined();
      expect(await storage().reviewerIdentities.findByConnection(gone.id)).toBeUndefined();
      expect(await storage().providerScopes.findById(keptScope.id)).toEqual(keptScope);
      expect(await storage().reviewerIdentities.findByConnection(kept.id)).toMatchObject({ connectionId: kept.id });
    });

    it('counts and inserts atomically inside a transaction', async () => {
      const c = client();
      await storage().clients.insert(c);
      const x = connection(c.id);
      const count = await storage().transaction(async (tx) => {
        const before = await tx.providerConnections.countForClient(c.id);
        await tx.providerConnections.insert(x);
        return before;
      });
      expect(count).toBe(0);
      await expect(
        storage().transaction(async (tx) => {
          await tx.providerConnections.insert(connection(c.id));
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await storage().providerConnections.countForClient(c.id)).toBe(1);
    });
  });

  describe('provider scopes', () => {
    it('round-trips, and reads a scope together with its connection', async () => {
      const c = client();
      await storage().clients.insert(c);
      const conn = connection(c.id);
      await storage().providerConnections.insert(conn);
      const s = scope(conn, { externalScopeId: 'org-42', scopeType: 'project', isEnabled: false });
      await storage().providerScopes.insert(s);
      expect(await storage().providerScopes.findById(s.id)).toEqual(s);
      expect(await storage().providerScopes.findWithConnection(s.id)).toEqual({ scope: s, connection: conn });
      expect(await storage().providerScopes.findWithConnection(uuid())).toBeUndefined();
    });

    it('keeps scope path keys unique per connection', async () => {
      const c = client();
      await storage().clients.insert(c);
      const [one, two] = [connection(c.id), connection(c.id)];
      await storage().providerConnections.insert(one);
      await storage().providerConnections.insert(two);
      const s = scope(one, { scopePath: 'https://github.com/Acme', scopePathKey: 'https://github.com/acme' });
      await storage().providerScopes.insert(s);
      const again = scope(one, { scopePath: 'https://github.com/acme', scopePathKey: 'https://github.com/acme' });
      expect(await conflictOf(storage().providerScopes.insert(again))).toBe('conflict');
      await storage().providerScopes.insert({ ...again, connectionId: two.id });
      const other = scope(one);
      await storage().providerScopes.insert(other);
      const collide = storage().providerScopes.update(other.id, { scopePathKey: s.scopePathKey });
      expect(await conflictOf(collide)).toBe('conflict');
      expect(await storage().providerScopes.update(other.id, { isEnabled: false, updatedAt: LATER })).toEqual({
        ...other,
        isEnabled: false,
        updatedAt: LATER,
      });
      expect(await storage().providerScopes.update(uuid(), { isEnabled: false })).toBeUndefined();
      expect(await storage().providerScopes.delete(other.id)).toBe(true);
      expect(await storage().providerScopes.delete(other.id)).toBe(false);
    });

    it('lists a connection’s scopes oldest first and finds the oldest enabled one', async () => {
      const c = client();
      await storage().clients.insert(c);
      const [conn, other] = [connection(c.id), connection(c.id)];
      await storage().providerConnections.insert(conn);
      await storage().providerConnections.insert(other);
      expect(await storage().providerScopes.firstEnabled(conn.id)).toBeUndefined();
      const disabledOldest = scope(conn, { createdAt: at(1), isEnabled: false });
      const enabledMiddle = scope(conn, { createdAt: at(2) });
      const enabledNewest = scope(conn, { createdAt: at(3) });
      for (const s of [enabledNewest, disabledOldest, enabledMiddle]) await storage().providerScopes.insert(s);
      await storage().providerScopes.insert(scope(other, { createdAt: at(0) }));
      expect(await storage().providerScopes.firstEnabled(conn.id)).toEqual(enabledMiddle);
      const first = await storage().providerScopes.listForConnection(conn.id, { limit: 2 });
      expect(first.items.map((s) => s.id)).toEqual([disabledOldest.id, enabledMiddle.id]);
      const second = await storage().providerScopes.listForConnection(conn.id, { limit: 2, cursor: first.nextCursor });
      expect(second).toEqual({ items: [enabledNewest], nextCursor: null });
    });
  });

  describe('reviewer identities', () => {
    it('keeps one per connection, replacing it but keeping when it was first set', async () => {
      const c = client();
      await storage().clients.insert(c);
      const conn = connection(c.id);
      await storage().providerConnections.insert(conn);
      expect(await storage().reviewerIdentities.findByConnection(conn.id)).toBeUndefined();
      const first = identity(conn, { isBot: false });
      expect(await storage().reviewerIdentities.put(first)).toEqual(first);
      const second = identity(conn, { login: 'ada', displayName: 'Ada', createdAt: LATER, updatedAt: LATER });
      const stored = await storage().reviewerIdentities.put(second);
      expect(stored).toEqual({ ...second, createdAt: NOW });
      expect(await storage().reviewerIdentities.findByConnection(conn.id)).toEqual(stored);
    });
  });
}
