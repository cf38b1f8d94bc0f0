import { beforeEach, describe, expect, it } from 'vitest';
import {
  connectionBody,
  issuesOf,
  PLATFORM_ADMIN,
  refusalOf,
  SCM_HOST,
  SCM_SECRET,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

let h: UseCaseHarness;
let clientId: string;
const create = (body: Record<string, unknown>, client = clientId) =>
  h.core.scm.createProviderConnection(PLATFORM_ADMIN, client, body);
const patch = (connectionId: string, body: Record<string, unknown>) =>
  h.core.scm.patchProviderConnection(PLATFORM_ADMIN, clientId, connectionId, body);
const verify = (connectionId: string) => h.core.scm.verifyProviderConnection(PLATFORM_ADMIN, clientId, connectionId);
const read = (connectionId: string) => h.core.scm.getProviderConnection(PLATFORM_ADMIN, clientId, connectionId);
const issues = async (call: Promise<unknown>) => issuesOf(await refusalOf(call));

const ENTRA = {
  providerFamily: 'suiteDevOps',
  authenticationKind: 'oauthClientCredentials',
  hostBaseUrl: `${SCM_HOST}/contoso`,
  oAuthTenantId: 'contoso-tenant',
  oAuthClientId: 'margin-app',
};
const GITHUB_APP = { authenticationKind: 'appInstallation', hostedAppId: 424_242, hostedAppInstallationId: 31_415 };

beforeEach(async () => {
  h = await startUseCases();
  clientId = await h.newClient();
});

describe('creating and reading provider connections', () => {
  it('answers every field but the secret, stores the secret sealed, and lists and reads the same', async () => {
    const created = await create({ ...connectionBody(), unknownField: 'ignored' });
    const now = h.clock.now().toISOString();
    expect(created).toEqual({
      id: expect.any(String),
      clientId,
      providerFamily: 'gitHostA',
      authenticationKind: 'personalAccessToken',
      hostBaseUrl: SCM_HOST,
      displayName: 'GitHub',
      isActive: true,
      oAuthTenantId: null,
      oAuthClientId: null,
      hostedAppId: null,
      hostedAppInstallationId: null,
      hasSecret: true,
      verificationStatus: 'neverVerified',
      lastVerifiedAt: null,
      lastVerificationError: null,
      lastVerificationFailureCategory: null,
      createdAt: now,
      updatedAt: now,
    });
    expect(await h.core.scm.listProviderConnections(PLATFORM_ADMIN, clientId, {})).toEqual({
      items: [created],
      nextCursor: null,
    });
    expect(await read(created.id)).toEqual(created);
    const stored = await h.storage.providerConnections.findById(created.id);
    expect(stored?.sealedSecret).not.toContain(SCM_SECRET);
    expect(stored?.sealedSecret.length).toBeGreaterThan(0);
  });

  it('stores the host without a trailing slash, scheme and host lower-cased, and names it by its host by default', async () => {
    const created = await create(
      connectionBody({ hostBaseUrl: 'HTTPS://SCM.Example.COM/Platform/', displayName: undefined, isActive: false }),
    );
    expect(created).toMatchObject({
      hostBaseUrl: 'https://scm.example.com/Platform',
      displayName: 'https://scm.example.com/Platform',
      isActive: false,
    });
  });

  it('validates the body, naming every field at fault', async () => {
    expect(await issues(create({}))).toEqual([
      { path: 'providerFamily', message: 'is required' },
      { path: 'authenticationKind', message: 'is required' },
      { path: 'hostBaseUrl', message: 'is required' },
      { path: 'secret', message: 'is required' },
    ]);
    const url = async (hostBaseUrl: string) => issues(create(connectionBody({ hostBaseUrl })));
    expect(await url('scm.example.com')).toEqual([{ path: 'hostBaseUrl', message: 'must be an absolute http(s) URL' }]);
    expect(await url('ftp://scm.example.com')).toEqual([
      { path: 'hostBaseUrl', message: 'must be an absolute http(s) URL' },
    ]);
    expect(await url('https://ada:hunter2@scm.example.com')).toEqual([
      { path: 'hostBaseUrl', message: 'must not contain credentials; put them in secret' },
    ]);
    expect(await url('https://scm.example.com/?private_token=x')).toEqual([
      { path: 'hostBaseUrl', message: 'must not have a query or fragment' },
    ]);
    expect(await url('http://169.254.169.254/latest')).toEqual([
      {
        path: 'hostBaseUrl',
        message: 'points at a cloud metadata endpoint (169.254.169.254), which Margin never calls',
      },
    ]);
    expect(await issues(create(connectionBody({ isActive: 'yes', secret: '   ' })))).toEqual([
      { path: 'secret', message: 'is required' },
      { path: 'isActive', message: 'must be a boolean' },
    ]);
    expect(await issues(create(connectionBody({ displayName: 'x'.repeat(201) })))).toEqual([
      { path: 'displayName', message: 'must be at most 200 characters' },
    ]);
    expect(await issues(create(connectionBody({ secret: 42 })))).toEqual([
      { path: 'secret', message: 'must be a string' },
    ]);
    expect((await h.core.scm.listProviderConnections(PLATFORM_ADMIN, clientId, {})).items).toEqual([]);
  });

  it('accepts only families the installation registers, and for each only the kinds it declares', async () => {
    for (const providerFamily of ['gitHostZ', 'forgejo']) {
      expect(await issues(create(connectionBody({ providerFamily })))).toEqual([
        { path: 'providerFamily', message: 'must be one of suiteDevOps, gitHostA, gitHostB, gitHostC' },
      ]);
    }
    const refused = async (providerFamily: string, authenticationKind: string, accepted: string) => {
      const body = connectionBody({ providerFamily, authenticationKind, oAuthTenantId: 't', oAuthClientId: 'c' });
      expect(await issues(create(body))).toEqual([
        {
          path: 'authenticationKind',
          message: `${providerFamily} connections do not accept authenticationKind '${authenticationKind}'; accepted: ${accepted}.`,
        },
      ]);
    };
    await refused('suiteDevOps', 'appInstallation', 'oauthClientCredentials, personalAccessToken');
    await refused('gitHostA', 'oauthClientCredentials', 'personalAccessToken, appInstallation');
    await refused('gitHostB', 'appInstallation', 'personalAccessToken');
    await refused('gitHostC', 'oauthClientCredentials', 'personalAccessToken');

    for (const body of [
      connectionBody({ providerFamily: 'suiteDevOps' }),
      connectionBody(ENTRA),
      connectionBody(),
      connectionBody(GITHUB_APP),
      connectionBody({ providerFamily: 'gitHostB' }),
      connectionBody({ providerFamily: 'gitHostC' }),
    ]) {
      expect((await create(body, await h.newClient())).verificationStatus).toBe('neverVerified');
    }
  });

  it('requires the fields of the authentication kind and refuses those of another kind', async () => {
    expect(await issues(create(connectionBody({ ...ENTRA, oAuthTenantId: undefined, oAuthClientId: '  ' })))).toEqual([
      { path: 'oAuthTenantId', message: "is required for authenticationKind 'oauthClientCredentials'" },
      { path: 'oAuthClientId', message: "is required for authenticationKind 'oauthClientCredentials'" },
    ]);
    expect(await issues(create(connectionBody({ ...GITHUB_APP, hostedAppId: null })))).toEqual([
      { path: 'hostedAppId', message: "is required for authenticationKind 'appInstallation'" },
    ]);
    expect(await issues(create(connectionBody({ ...GITHUB_APP, hostedAppInstallationId: -3 })))).toEqual([
      { path: 'hostedAppInstallationId', message: 'must be a positive integer' },
    ]);
    expect(await issues(create(connectionBody({ hostedAppId: 5, oAuthTenantId: 'tenant' })))).toEqual([
      { path: 'oAuthTenantId', message: "is only for authenticationKind 'oauthClientCredentials'" },
      { path: 'hostedAppId', message: "is only for authenticationKind 'appInstallation'" },
    ]);
    // Blank and null mean "not given", so a form may send every field.
    expect(await create(connectionBody({ oAuthTenantId: '', oAuthClientId: null, hostedAppId: null }))).toMatchObject({
      oAuthTenantId: null,
      oAuthClientId: null,
      hostedAppId: null,
    });
  });

  it('refuses a second connection without multiple-scm-providers (409 license_required), and allows it with', async () => {
    await create(connectionBody());
    const refused = await refusalOf(create(connectionBody({ providerFamily: 'gitHostB' })));
    expect(refused.code).toBe('license_required');
    expect(refused.message).toBe(
      'More than one source-control connection per client needs a Commercial license (multiple-scm-providers).',
    );
    expect(refused.details).toEqual({ capability: 'multiple-scm-providers' });
    // Every client has its first one.
    await create(connectionBody(), await h.newClient());

    await h.setEdition('Commercial');
    await create(connectionBody({ providerFamily: 'gitHostB' }));
    await h.setEdition('Commercial', [{ capability: 'multiple-scm-providers', overrideState: 'disabled' }]);
    expect((await refusalOf(create(connectionBody({ providerFamily: 'gitHostC' })))).code).toBe('license_required');
    expect((await h.core.scm.listProviderConnections(PLATFORM_ADMIN, clientId, {})).items).toHaveLength(2);
  });

  it('refuses a duplicate: the same family on the same host, whatever its case or trailing slash (409)', async () => {
    await h.setEdition('Commercial');
    await create(connectionBody());
    const duplicate = await refusalOf(create(connectionBody({ hostBaseUrl: 'HTTPS://SCM.example.com/' })));
    expect(duplicate.code).toBe('conflict');
    expect(duplicate.message).toBe('This client already has a connection of this provider family to this host.');
    // Another family on the host, another host, and another client are fine.
    await create(connectionBody({ providerFamily: 'gitHostB' }));
    const enterprise = await create(connectionBody({ hostBaseUrl: 'https://github.acme.example' }));
    await create(connectionBody(), await h.newClient());
    // So is moving a connection onto a taken host.
    const moved = await refusalOf(patch(enterprise.id, { hostBaseUrl: `${SCM_HOST}/`, secret: SCM_SECRET }));
    expect(moved.code).toBe('conflict');
  });

  it('answers 404 for an unknown connection and for another client’s, without confirming it exists', async () => {
    const other = await h.newClient();
    const theirs = await create(connectionBody(), other);
    const id = theirs.id;
    for (const call of [
      () => read(id),
      () => patch(id, { displayName: 'Stolen' }),
      () => verify(id),
      () => h.core.scm.deleteProviderConnection(PLATFORM_ADMIN, clientId, id),
      () => h.core.scm.listProviderScopes(PLATFORM_ADMIN, clientId, id, {}),
      () =>
        h.core.scm.createProviderScope(PLATFORM_ADMIN, clientId, id, {
          scopeType: 'organization',
          scopePath: `${SCM_HOST}/acme`,
        }),
      () => h.core.scm.getReviewerIdentity(PLATFORM_ADMIN, clientId, id),
      () => h.core.scm.putReviewerIdentity(PLATFORM_ADMIN, clientId, id, { externalUserId: '1', login: 'x' }),
      () => h.core.scm.resolveReviewerIdentities(PLATFORM_ADMIN, clientId, id, { search: 'ada' }),
      () => read('00000000-0000-4000-8000-00000000beef'),
    ]) {
      const refused = await refusalOf(call());
      expect([refused.code, refused.message]).toEqual(['not_found', 'Provider connection not found.']);
    }
    expect((await h.core.scm.getProviderConnection(PLATFORM_ADMIN, other, id)).displayName).toBe('GitHub');
  });
});

describe('changing and deleting provider connections', () => {
  it('keeps verification for a new name or state and when no secret is sent; a new secret resets it', async () => {
    const { id } = await create(connectionBody());
    expect((await verify(id)).verificationStatus).toBe('verified');
    expect(await patch(id, { displayName: 'GitHub Enterprise', isActive: false })).toMatchObject({
      displayName: 'GitHub Enterprise',
      isActive: false,
      verificationStatus: 'verified',
    });
    for (const keep of [{ secret: '' }, { secret: '   ' }, { secret: null }, {}, { hostBaseUrl: `${SCM_HOST}/` }]) {
      expect((await patch(id, keep)).verificationStatus, JSON.stringify(keep)).toBe('verified');
    }
    expect(await patch(id, { secret: 'a-new-secret' })).toMatchObject({
      verificationStatus: 'neverVerified',
      lastVerifiedAt: null,
      lastVerificationError: null,
      hasSecret: true,
    });
    // The authentication kind and family cannot change; unknown fields are ignored.
    expect(await patch(id, { providerFamily: 'gitHostB', authenticationKind: 'appInstallation' })).toMatchObject({
      providerFamily: 'gitHostA',
      authenticationKind: 'personalAccessToken',
    });
  });

  it('sends a stored secret only to the host it was given for: a new host needs the secret again (400)', async () => {
    const { id } = await create(connectionBody());
    await verify(id);
    for (const change of [
      { hostBaseUrl: 'https://elsewhere.example' },
      { hostBaseUrl: 'https://elsewhere.example', secret: '  ' },
      { hostBaseUrl: `${SCM_HOST}/other-path` },
    ]) {
      expect(await issues(patch(id, change)), JSON.stringify(change)).toEqual([
        {
          path: 'secret',
          message:
            'is required again when hostBaseUrl changes: a stored secret is only sent to the host it was given for.',
        },
      ]);
    }
    expect(await read(id)).toMatchObject({ hostBaseUrl: SCM_HOST, verificationStatus: 'verified' });

    const moved = await patch(id, { hostBaseUrl: 'https://elsewhere.example', secret: 'elsewhere-secret' });
    expect(moved).toMatchObject({ hostBaseUrl: 'https://elsewhere.example', verificationStatus: 'neverVerified' });
    await verify(id);
    expect(h.scm.connected.map((c) => [c.hostBaseUrl, c.secret])).toEqual([
      [SCM_HOST, SCM_SECRET],
      ['https://elsewhere.example', 'elsewhere-secret'],
    ]);
  });

  it('uses a stored secret only for the tenant, app and installation it was given for', async () => {
    await h.setEdition('Commercial');
    const entra = await create(connectionBody(ENTRA));
    const app = await create(connectionBody({ ...GITHUB_APP, hostBaseUrl: 'https://github.acme.example' }));
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [entra.id, { oAuthTenantId: 'attacker-tenant' }, 'oAuthTenantId'],
      [entra.id, { oAuthClientId: 'attacker-app', secret: null }, 'oAuthClientId'],
      [app.id, { hostedAppId: 1 }, 'hostedAppId'],
      [app.id, { hostedAppInstallationId: 2, secret: '  ' }, 'hostedAppInstallationId'],
    ];
    for (const [id, change, field] of cases) {
      expect(await issues(patch(id, change))).toEqual([
        {
          path: 'secret',
          message: `is required again when ${field} changes: a stored secret is only used for the host, tenant, application and installation it was given for.`,
        },
      ]);
    }
    // The same values again need no secret; given again, a change is made and resets verification.
    expect(await patch(entra.id, { oAuthTenantId: 'contoso-tenant' })).toMatchObject({
      oAuthTenantId: 'contoso-tenant',
    });
    expect(await patch(entra.id, { oAuthClientId: 'margin-app-2', secret: SCM_SECRET })).toMatchObject({
      oAuthClientId: 'margin-app-2',
      verificationStatus: 'neverVerified',
    });
    expect(await issues(patch(entra.id, { hostedAppId: 5 }))).toEqual([
      { path: 'hostedAppId', message: "is only for authenticationKind 'appInstallation'" },
    ]);
  });

  it('deletes a connection with its scopes and reviewer identity, then answers 404; Community may connect again', async () => {
    const { id } = await create(connectionBody());
    const scope = await h.core.scm.createProviderScope(PLATFORM_ADMIN, clientId, id, {
      scopeType: 'organization',
      scopePath: `${SCM_HOST}/acme`,
    });
    await h.core.scm.putReviewerIdentity(PLATFORM_ADMIN, clientId, id, { externalUserId: '99', login: 'margin-bot' });
    await h.core.scm.deleteProviderConnection(PLATFORM_ADMIN, clientId, id);
    expect((await refusalOf(read(id))).code).toBe('not_found');
    expect((await refusalOf(h.core.scm.deleteProviderConnection(PLATFORM_ADMIN, clientId, id))).code).toBe('not_found');
    expect(await h.storage.providerScopes.findById(scope.id)).toBeUndefined();
    expect(await h.storage.reviewerIdentities.findByConnection(id)).toBeUndefined();
    expect((await create(connectionBody({ providerFamily: 'gitHostB' }))).providerFamily).toBe('gitHostB');
  });
});

describe('verifying provider connections', () => {
  it('records a success with its time', async () => {
    const { id } = await create(connectionBody());
    h.clock.advance(60_000);
    const verified = await verify(id);
    expect(verified).toMatchObject({
      id,
      verificationStatus: 'verified',
      lastVerifiedAt: h.clock.now().toISOString(),
      lastVerificationError: null,
      lastVerificationFailureCategory: null,
    });
    expect(await read(id)).toEqual(verified);
  });

  it('records a refusal as failed with Margin’s own summary, never the secret; a later success clears it', async () => {
    const wrong = 'scm-canary-wrong-secret-0d2f4b6a';
    const { id } = await create(connectionBody({ secret: wrong }));
    const failed = await verify(id);
    expect(failed).toMatchObject({
      verificationStatus: 'failed',
      lastVerifiedAt: h.clock.now().toISOString(),
      lastVerificationError: 'GitHub refused the credentials (HTTP 401).',
      lastVerificationFailureCategory: 'credentials',
    });
    expect(JSON.stringify(failed)).not.toContain(wrong);
    await patch(id, { secret: SCM_SECRET });
    expect(await verify(id)).toMatchObject({
      verificationStatus: 'verified',
      lastVerificationError: null,
      lastVerificationFailureCategory: null,
    });
  });

  it('records an unreachable host as failed', async () => {
    const { id } = await create(connectionBody());
    h.scm.unreachable = true;
    expect(await verify(id)).toMatchObject({
      verificationStatus: 'failed',
      lastVerificationError: `GitHub could not be reached at ${SCM_HOST}.`,
      lastVerificationFailureCategory: 'unavailable',
    });
  });

  /** Takes the family out of the registry, as a restart without its plugin does. */
  const unregister = (family: string) => {
    h.scm.families.splice(
      h.scm.families.findIndex((f) => f.family === family),
      1,
    );
  };

  it('refuses (409) to use a connection whose family is no longer registered; new requests for it are 400', async () => {
    const { id } = await create(connectionBody({ providerFamily: 'gitHostC' }));
    unregister('gitHostC');
    const refused = await refusalOf(
      h.core.scm.resolveReviewerIdentities(PLATFORM_ADMIN, clientId, id, { search: 'a' }),
    );
    expect(refused.code).toBe('conflict');
    expect(refused.message).toBe(
      "Source-control provider 'gitHostC' is not registered in this installation; register its plugin to use what was saved for it.",
    );
    expect(await issues(create(connectionBody({ providerFamily: 'gitHostC' }), await h.newClient()))).toEqual([
      { path: 'providerFamily', message: 'must be one of suiteDevOps, gitHostA, gitHostB' },
    ]);
  });

  // The host is never called, so there is no answer of its to store; the caller is told to register
  // the plugin instead of reading "Bitbucket could not be reached".
  it('refuses (409) to verify a connection whose family is no longer registered, storing nothing', async () => {
    const { id } = await create(connectionBody({ providerFamily: 'gitHostC' }));
    unregister('gitHostC');
    expect((await refusalOf(verify(id))).code).toBe('conflict');
    expect((await h.storage.providerConnections.findById(id))?.verificationStatus).toBe('neverVerified');
  });

  // A plugin family is named as it registered itself, not looked up among the built-in four.
  it('names a plugin family by its registered name in a failed verification', async () => {
    const bitbucket = h.scm.families.find((f) => f.family === 'gitHostC');
    if (!bitbucket) throw new Error('the fake registers gitHostC');
    h.scm.families.push({ ...bitbucket, family: 'forgejo', displayName: 'Forgejo', receiverSegment: 'forgejo' });
    const { id } = await create(connectionBody({ providerFamily: 'forgejo', secret: 'a-wrong-secret' }));
    expect((await verify(id)).lastVerificationError).toBe('Forgejo refused the credentials (HTTP 401).');
  });
});
