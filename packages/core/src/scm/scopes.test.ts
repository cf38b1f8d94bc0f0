import { beforeEach, describe, expect, it } from 'vitest';
import {
  connectionBody,
  issuesOf,
  PLATFORM_ADMIN,
  refusalOf,
  SCM_HOST,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

let h: UseCaseHarness;
let clientId: string;
let connectionId: string;
const createScope = (body: Record<string, unknown>, connection = connectionId) =>
  h.core.scm.createProviderScope(PLATFORM_ADMIN, clientId, connection, body);
const listScopes = (query: Record<string, unknown> = {}) =>
  h.core.scm.listProviderScopes(PLATFORM_ADMIN, clientId, connectionId, query);
const patchScope = (scopeId: string, body: Record<string, unknown>, connection = connectionId) =>
  h.core.scm.patchProviderScope(PLATFORM_ADMIN, clientId, connection, scopeId, body);
const deleteScope = (scopeId: string, connection = connectionId) =>
  h.core.scm.deleteProviderScope(PLATFORM_ADMIN, clientId, connection, scopeId);

beforeEach(async () => {
  h = await startUseCases({ edition: 'Commercial' });
  clientId = await h.newClient();
  connectionId = (await h.core.scm.createProviderConnection(PLATFORM_ADMIN, clientId, connectionBody())).id;
});

describe('provider scopes', () => {
  it('creates scopes with their defaults, lists them oldest first a page at a time, changes and deletes them', async () => {
    const created = await createScope({
      scopeType: 'organization',
      scopePath: `${SCM_HOST}/acme/`,
      externalScopeId: '1001',
      displayName: 'Acme',
      unknown: true,
    });
    const now = h.clock.now().toISOString();
    expect(created).toEqual({
      id: expect.any(String),
      clientId,
      connectionId,
      scopeType: 'organization',
      externalScopeId: '1001',
      scopePath: `${SCM_HOST}/acme`,
      displayName: 'Acme',
      isEnabled: true,
      createdAt: now,
      updatedAt: now,
    });
    h.clock.advance(1000);
    const second = await createScope({ scopeType: 'repository', scopePath: `${SCM_HOST}/acme/app` });
    expect(second).toMatchObject({ displayName: `${SCM_HOST}/acme/app`, externalScopeId: null, isEnabled: true });

    expect(await listScopes()).toEqual({ items: [created, second], nextCursor: null });
    const page = await listScopes({ limit: '1' });
    expect(page.items).toEqual([created]);
    expect(await listScopes({ limit: '1', cursor: page.nextCursor })).toEqual({ items: [second], nextCursor: null });

    h.clock.advance(1000);
    expect(
      await patchScope(second.id, {
        isEnabled: false,
        displayName: 'App',
        scopeType: 'project',
        externalScopeId: null,
      }),
    ).toEqual({
      ...second,
      isEnabled: false,
      displayName: 'App',
      scopeType: 'project',
      updatedAt: h.clock.now().toISOString(),
    });
    await deleteScope(second.id);
    expect((await refusalOf(deleteScope(second.id))).code).toBe('not_found');
    expect((await listScopes()).items).toEqual([created]);
  });

  it('refuses a scope path the connection already has, whatever its case or trailing slash (409)', async () => {
    await createScope({ scopeType: 'organization', scopePath: `${SCM_HOST}/acme` });
    const duplicate = await refusalOf(
      createScope({ scopeType: 'organization', scopePath: 'https://SCM.example.com/Acme/' }),
    );
    expect(duplicate.code).toBe('conflict');
    expect(duplicate.message).toBe('This provider connection already has a scope with this path.');
    // Another connection may hold the same path; moving a scope onto a taken path is a duplicate too.
    const other = await h.core.scm.createProviderConnection(
      PLATFORM_ADMIN,
      clientId,
      connectionBody({ providerFamily: 'gitHostB' }),
    );
    await createScope({ scopeType: 'organization', scopePath: `${SCM_HOST}/acme` }, other.id);
    const elsewhere = await createScope({ scopeType: 'organization', scopePath: `${SCM_HOST}/other` });
    expect((await refusalOf(patchScope(elsewhere.id, { scopePath: `${SCM_HOST}/ACME` }))).code).toBe('conflict');
  });

  it('validates scopes, naming every field at fault (400)', async () => {
    expect(issuesOf(await refusalOf(createScope({})))).toEqual([
      { path: 'scopeType', message: 'is required' },
      { path: 'scopePath', message: 'is required' },
    ]);
    expect(issuesOf(await refusalOf(createScope({ scopeType: 'team', scopePath: 'acme', isEnabled: 1 })))).toEqual([
      { path: 'scopeType', message: 'must be one of organization, project, repository' },
      { path: 'scopePath', message: 'must be an absolute http(s) URL' },
      { path: 'isEnabled', message: 'must be a boolean' },
    ]);
  });

  it('answers 404 for an unknown scope and for one reached through another connection', async () => {
    const unknown = await refusalOf(patchScope('00000000-0000-4000-8000-00000000beef', { isEnabled: false }));
    expect([unknown.code, unknown.message]).toEqual(['not_found', 'Provider scope not found.']);
    const other = await h.core.scm.createProviderConnection(
      PLATFORM_ADMIN,
      clientId,
      connectionBody({ providerFamily: 'gitHostB' }),
    );
    const theirs = await createScope({ scopeType: 'organization', scopePath: `${SCM_HOST}/acme` }, other.id);
    expect((await refusalOf(deleteScope(theirs.id))).message).toBe('Provider scope not found.');
    expect((await refusalOf(patchScope(theirs.id, { displayName: 'Mine' }))).code).toBe('not_found');
  });
});
