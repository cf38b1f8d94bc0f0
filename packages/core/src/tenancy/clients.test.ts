import { beforeEach, describe, expect, it } from 'vitest';
import type { MarginEvents } from '../kernel/index.js';
import { SYSTEM_TENANT_ID } from '../kernel/index.js';
import {
  CLIENT_ADMINS,
  CLIENT_USERS,
  issuesOf,
  LEASE_MS,
  outcomesByPersona,
  PLATFORM_ADMIN,
  pullRequestScenario,
  refusalOf,
  reviewSubmission,
  SCM_SCOPE_PATH,
  setUpPersonas,
  startUseCases,
  type UseCaseHarness,
  WORKER,
} from '../use-case-harness.js';

let h: UseCaseHarness;
const createClient = (displayName: string, tenantId = SYSTEM_TENANT_ID, actor = PLATFORM_ADMIN) =>
  h.core.tenancy.createClient(actor, { displayName, tenantId });
const visible = async (actor = PLATFORM_ADMIN, query: Record<string, unknown> = {}) =>
  (await h.core.tenancy.listClients(actor, query)).items.map((c) => c.id);
const newTenant = async (displayName: string) =>
  (await h.core.tenancy.createTenant(PLATFORM_ADMIN, { displayName })).id;

beforeEach(async () => {
  h = await startUseCases();
});

describe('creating clients', () => {
  it('creates a System-tenant client for the platform administrator and refuses a duplicate name in any case (409)', async () => {
    const created = await createClient('Payments');
    const now = h.clock.now().toISOString();
    expect(created).toEqual({
      id: expect.any(String),
      tenantId: SYSTEM_TENANT_ID,
      displayName: 'Payments',
      isActive: true,
      createdAt: now,
      updatedAt: now,
    });
    const duplicate = await refusalOf(createClient('PAYMENTS'));
    expect([duplicate.code, duplicate.message]).toEqual([
      'conflict',
      'This tenant already has a client with that name.',
    ]);
  });

  it('validates the body (400) and answers 404 for an unknown tenant', async () => {
    expect(
      issuesOf(await refusalOf(h.core.tenancy.createClient(PLATFORM_ADMIN, { tenantId: SYSTEM_TENANT_ID }))),
    ).toEqual([{ path: 'displayName', message: expect.any(String) }]);
    expect(issuesOf(await refusalOf(createClient('X', 'not-a-uuid')))).toEqual([
      { path: 'tenantId', message: 'tenantId must be a UUID' },
    ]);
    const unknown = await refusalOf(createClient('X', '22222222-2222-4222-8222-222222222222'));
    expect([unknown.code, unknown.message]).toEqual(['not_found', 'Tenant not found.']);
  });

  it('keeps the System tenant’s clients to the platform administrator, even against its tenant administrator', async () => {
    const systemAdmin = await h.tenantMember(SYSTEM_TENANT_ID, 'TenantAdministrator');
    const refused = await refusalOf(createClient('Mine', SYSTEM_TENANT_ID, systemAdmin));
    expect([refused.code, refused.message]).toEqual([
      'forbidden',
      'Creating a client in the System tenant needs the platform administrator.',
    ]);
  });

  it('lets a tenant’s administrator create clients in that tenant only, in Commercial', async () => {
    await h.setEdition('Commercial');
    const acme = await newTenant('Acme');
    const other = await newTenant('Other');
    const admin = await h.tenantMember(acme, 'TenantAdministrator');
    expect(await createClient('Acme Web', acme, admin)).toMatchObject({ tenantId: acme, displayName: 'Acme Web' });
    // The same name is fine in another tenant.
    expect((await createClient('Acme Web', other)).tenantId).toBe(other);
    const user = await h.tenantMember(acme, 'TenantUser');
    expect((await refusalOf(createClient('Nope', acme, user))).code).toBe('forbidden');
    expect((await refusalOf(createClient('Nope', other, admin))).code).toBe('not_found');
  });

  it('refuses a client outside the System tenant in Community (409 license_required naming multi-tenancy)', async () => {
    await h.setEdition('Commercial');
    const acme = await newTenant('Acme');
    await h.setEdition('Community');
    const refused = await refusalOf(createClient('Acme Mobile', acme));
    expect(refused.code).toBe('license_required');
    expect(refused.message).toBe(
      'A client outside the System tenant needs a Commercial license (multi-tenancy): Community has only the System tenant.',
    );
    expect(refused.details).toEqual({ capability: 'multi-tenancy' });
  });
});

describe('listing and reading clients', () => {
  it('shows each caller the clients it has a role on; a tenant administrator every client of its tenant', async () => {
    const p = await setUpPersonas(h);
    expect(await visible(p.actors.clientUser)).toEqual([p.clientA]);
    expect(await visible(p.actors.clientAdmin)).toEqual([p.clientA]);
    expect(await visible(p.actors.otherClientAdmin)).toEqual([p.clientB]);
    expect(await visible(p.actors.tenantAdmin)).toEqual([p.clientA, p.clientB]);
    expect(await visible(PLATFORM_ADMIN)).toEqual([p.clientA, p.clientB]);
    expect(await visible(await h.newUser())).toEqual([]);
  });

  it('lists oldest first, a page at a time', async () => {
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      ids.push((await createClient(name)).id);
      h.clock.advance(1000);
    }
    const page = await h.core.tenancy.listClients(PLATFORM_ADMIN, { limit: '2' });
    expect(page.items.map((c) => c.id)).toEqual(ids.slice(0, 2));
    expect(await visible(PLATFORM_ADMIN, { limit: '2', cursor: page.nextCursor })).toEqual(ids.slice(2));
  });

  it('reads a client for its members (ClientUser and up); others learn nothing', async () => {
    const p = await setUpPersonas(h);
    expect(await outcomesByPersona(p.actors, (a) => h.core.tenancy.getClient(a, p.clientA))).toEqual(CLIENT_USERS);
    expect(await h.core.tenancy.getClient(p.actors.clientUser, p.clientA)).toMatchObject({ id: p.clientA });
    const unknown = await refusalOf(h.core.tenancy.getClient(PLATFORM_ADMIN, '00000000-0000-4000-8000-00000000beef'));
    expect([unknown.code, unknown.message]).toEqual(['not_found', 'Client not found.']);
  });

  it('keeps the clients of other tenants, out of reach while the installation is Community', async () => {
    await h.setEdition('Commercial');
    const acme = await newTenant('Acme');
    const admin = await h.tenantMember(acme, 'TenantAdministrator');
    const acmeClient = (await createClient('Acme Web', acme, admin)).id;
    const systemClient = (await createClient('Payments')).id;

    await h.setEdition('Community');
    expect(await visible()).toEqual([systemClient]);
    expect(await visible(admin)).toEqual([]);
    for (const actor of [PLATFORM_ADMIN, admin]) {
      expect((await refusalOf(h.core.tenancy.getClient(actor, acmeClient))).code).toBe('not_found');
    }
    expect(await h.storage.clients.findById(acmeClient)).toBeDefined();

    await h.setEdition('Commercial');
    expect((await h.core.tenancy.getClient(admin, acmeClient)).id).toBe(acmeClient);
  });
});

describe('changing clients', () => {
  it('lets a ClientAdministrator (or the tenant’s administrator) rename and deactivate a client, announced', async () => {
    const p = await setUpPersonas(h);
    expect(
      await outcomesByPersona(p.actors, (a) => h.core.tenancy.patchClient(a, p.clientA, { displayName: 'Client A' })),
    ).toEqual(CLIENT_ADMINS);
    const updated: Array<MarginEvents['client.updated']> = [];
    h.core.events.on('client.updated', (e) => updated.push(e));
    h.clock.advance(1000);
    expect(await h.core.tenancy.patchClient(p.actors.tenantAdmin, p.clientA, { isActive: false })).toMatchObject({
      id: p.clientA,
      isActive: false,
      updatedAt: h.clock.now().toISOString(),
    });
    expect(updated).toEqual([{ clientId: p.clientA, isActive: false }]);
  });

  it('refuses a name another client of the tenant has (409), and validates the change (400)', async () => {
    await createClient('Payments');
    const other = (await createClient('Billing')).id;
    expect((await refusalOf(h.core.tenancy.patchClient(PLATFORM_ADMIN, other, { displayName: 'payments' }))).code).toBe(
      'conflict',
    );
    const invalid = await refusalOf(h.core.tenancy.patchClient(PLATFORM_ADMIN, other, { isActive: 'no' }));
    expect(issuesOf(invalid).map((i) => i.path)).toEqual(['isActive']);
  });
});

describe('a deactivated client', () => {
  const DEACTIVATED = 'This client is deactivated: it serves nothing until a client administrator activates it again.';
  const setActive = (clientId: string, isActive: boolean) =>
    h.core.tenancy.patchClient(PLATFORM_ADMIN, clientId, { isActive });

  it('can still be listed, read and activated again; everything else answers 409 saying it is deactivated', async () => {
    await h.setEdition('Commercial');
    const { clientId, connectionId, scopeId } = await h.scopedClient();
    await h.core.triggers.createWebhookConfiguration(
      PLATFORM_ADMIN,
      { clientId, provider: 'gitHostA', organizationScopeId: scopeId, providerProjectKey: 'acme' },
      { baseUrl: 'https://margin.example.com', source: 'publicBaseUrl' },
    );
    const admin = await h.clientMember(clientId, 'ClientAdministrator');
    await setActive(clientId, false);

    expect(await visible()).toEqual([clientId]);
    expect(await h.core.tenancy.getClient(admin, clientId)).toMatchObject({ id: clientId, isActive: false });
    for (const [what, call] of [
      ['list connections', () => h.core.scm.listProviderConnections(admin, clientId, {})],
      ['verify a connection', () => h.core.scm.verifyProviderConnection(admin, clientId, connectionId)],
      ['discover projects', () => h.core.scm.discoverProjects(admin, clientId, { organizationScopeId: scopeId })],
      ['submit a review', () => h.core.reviewing.submitReviewJob(admin, clientId, reviewSubmission(7))],
      ['list jobs', () => h.core.reviewing.listReviewJobs(admin, clientId, {})],
      ['list blocks', () => h.core.reviewing.listBlockedPullRequests(admin, clientId, {})],
      ['list members', () => h.core.identity.listClientMembers(admin, clientId, {})],
    ] as const) {
      const refused = await refusalOf(call());
      expect([refused.code, refused.message, refused.details], what).toEqual([
        'conflict',
        DEACTIVATED,
        { reason: 'clientDeactivated' },
      ]);
    }
    h.scm.loadPullRequest(pullRequestScenario(42));
    const byCoordinates = {
      providerScopePath: SCM_SCOPE_PATH,
      providerProjectKey: 'acme',
      repositoryId: '4242',
      pullRequestId: 42,
    };
    expect(await h.core.reviewing.submitReviewByCoordinates(admin, clientId, byCoordinates)).toEqual({
      outcome: 'notSubmittable',
      code: 'conflict',
      reason: 'clientDeactivated',
      error: DEACTIVATED,
    });

    await h.core.tenancy.patchClient(admin, clientId, { isActive: true });
    expect((await h.core.scm.listProviderConnections(admin, clientId, {})).items).toHaveLength(1);
  });

  it('keeps its queued reviews waiting, without holding Community’s one review slot, until it is active again', async () => {
    await h.setEdition('Commercial');
    const idle = await h.newClient();
    const busy = await h.newClient();
    const waiting = (await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, idle, reviewSubmission(1))).jobId;
    await setActive(idle, false);
    await h.setEdition('Community');

    expect(await h.core.worker.claimJobs({ owner: WORKER, capacity: 1, leaseMs: LEASE_MS })).toEqual([]);
    const other = (await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, busy, reviewSubmission(2))).jobId;
    expect(await h.runQueued()).toEqual([{ status: 'completed' }]);
    expect(h.engine.reviewed).toEqual([other]);

    await setActive(idle, true);
    expect(await h.runQueued()).toEqual([{ status: 'completed' }]);
    expect(h.engine.reviewed).toEqual([other, waiting]);
  });
});
