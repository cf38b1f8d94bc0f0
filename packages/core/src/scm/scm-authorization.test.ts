import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../kernel/index.js';
import {
  CLIENT_ADMINS,
  CLIENT_USERS,
  connectionBody,
  outcomesByPersona,
  type Persona,
  type Personas,
  PLATFORM_ADMIN,
  SCM_SCOPE_PATH,
  setUpPersonas,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

/**
 * Who may use provider connections, scopes, the reviewer identity and discovery: ClientUser reads
 * and discovers; ClientAdministrator configures, verifies and resolves identities against the
 * provider. Commercial, so repeated creates are not refused for the license.
 */
describe('authorization: source control', () => {
  let h: UseCaseHarness;
  let p: Personas;
  let connectionId: string;
  let scopeId: string;
  let made = 0;
  const clientA = () => p.clientA;
  const newConnection = async () =>
    (
      await h.core.scm.createProviderConnection(
        PLATFORM_ADMIN,
        clientA(),
        connectionBody({ hostBaseUrl: `https://gone-${++made}.example` }),
      )
    ).id;
  const newScope = async () =>
    (
      await h.core.scm.createProviderScope(PLATFORM_ADMIN, clientA(), connectionId, {
        scopeType: 'project',
        scopePath: `${SCM_SCOPE_PATH}/doomed-${++made}`,
      })
    ).id;
  const discovery = (query: Record<string, unknown> = {}) => ({ organizationScopeId: scopeId, ...query });

  beforeAll(async () => {
    h = await startUseCases({ edition: 'Commercial' });
    const scoped = await h.scopedClient();
    ({ connectionId, scopeId } = scoped);
    p = await setUpPersonas(h, scoped.clientId);
    await h.core.scm.putReviewerIdentity(PLATFORM_ADMIN, clientA(), connectionId, {
      externalUserId: '99',
      login: 'margin-bot',
    });
  });

  const rows: Array<[string, (actor: Actor) => Promise<unknown>, Record<Persona, string>]> = [
    ['list connections', (a) => h.core.scm.listProviderConnections(a, clientA(), {}), CLIENT_USERS],
    [
      'create a connection',
      (a) =>
        h.core.scm.createProviderConnection(
          a,
          clientA(),
          connectionBody({ hostBaseUrl: `https://new-${++made}.example` }),
        ),
      CLIENT_ADMINS,
    ],
    ['read a connection', (a) => h.core.scm.getProviderConnection(a, clientA(), connectionId), CLIENT_USERS],
    [
      'change a connection',
      (a) => h.core.scm.patchProviderConnection(a, clientA(), connectionId, { displayName: 'GitHub' }),
      CLIENT_ADMINS,
    ],
    [
      'delete a connection',
      async (a) => h.core.scm.deleteProviderConnection(a, clientA(), await newConnection()),
      CLIENT_ADMINS,
    ],
    ['verify a connection', (a) => h.core.scm.verifyProviderConnection(a, clientA(), connectionId), CLIENT_ADMINS],
    ['list scopes', (a) => h.core.scm.listProviderScopes(a, clientA(), connectionId, {}), CLIENT_USERS],
    [
      'create a scope',
      (a) =>
        h.core.scm.createProviderScope(a, clientA(), connectionId, {
          scopeType: 'organization',
          scopePath: `${SCM_SCOPE_PATH}-${++made}`,
        }),
      CLIENT_ADMINS,
    ],
    [
      'change a scope',
      (a) => h.core.scm.patchProviderScope(a, clientA(), connectionId, scopeId, { displayName: 'Acme' }),
      CLIENT_ADMINS,
    ],
    [
      'delete a scope',
      async (a) => h.core.scm.deleteProviderScope(a, clientA(), connectionId, await newScope()),
      CLIENT_ADMINS,
    ],
    [
      'resolve reviewer identities',
      (a) => h.core.scm.resolveReviewerIdentities(a, clientA(), connectionId, { search: 'ad' }),
      CLIENT_ADMINS,
    ],
    [
      'set the reviewer identity',
      (a) => h.core.scm.putReviewerIdentity(a, clientA(), connectionId, { externalUserId: '99', login: 'margin-bot' }),
      CLIENT_ADMINS,
    ],
    ['read the reviewer identity', (a) => h.core.scm.getReviewerIdentity(a, clientA(), connectionId), CLIENT_USERS],
    ['discover projects', (a) => h.core.scm.discoverProjects(a, clientA(), discovery()), CLIENT_USERS],
    [
      'discover projects for crawling',
      (a) => h.core.scm.discoverProjects(a, clientA(), discovery({ purpose: 'crawl' })),
      CLIENT_USERS,
    ],
    [
      'discover sources',
      (a) => h.core.scm.discoverSources(a, clientA(), discovery({ projectId: 'acme' })),
      CLIENT_USERS,
    ],
    [
      'discover branches',
      (a) =>
        h.core.scm.discoverBranches(
          a,
          clientA(),
          discovery({ projectId: 'acme', canonicalSourceProvider: 'gitHostA', canonicalSourceValue: '4242' }),
        ),
      CLIENT_USERS,
    ],
    [
      'discover crawl filters',
      (a) => h.core.scm.discoverCrawlFilters(a, clientA(), discovery({ projectId: 'acme', purpose: 'crawl' })),
      CLIENT_USERS,
    ],
  ];

  it.each(rows)('%s', async (_name, call, expected) => {
    expect(await outcomesByPersona(p.actors, call)).toEqual(expected);
  });
});
