import { randomBytes } from 'node:crypto';
import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import {
  BITBUCKET_BAD_ACCESS_TOKEN,
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  GITLAB_PROJECT_ID,
  startFakeHttpServer,
} from '@margin/providers/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, startTestHost, TestApi, type TestHost } from '../testing/index.js';
import { GITHUB_APP, type ScmFakes, SECRETS, startScmFakes } from '../testing/scm-test-support.js';

/** Every answer the tests receive, searched for secrets at the end. */
class RecordingApi extends TestApi {
  constructor(
    baseUrl: string,
    private readonly seen: ApiResponse[],
    credentials = {},
  ) {
    super(baseUrl, credentials);
  }
  override with(credentials: object): RecordingApi {
    return new RecordingApi(this.baseUrl, this.seen, credentials);
  }
  override async request(method: string, path: string, body?: unknown, headers?: Record<string, string>) {
    const res = await super.request(method, path, body, headers);
    this.seen.push(res);
    return res;
  }
}

/** Wrong credentials the fakes refuse; they must never come back either. */
const WRONG = {
  gitlab: 'glpat-canary-wrong-token-5c3e9a7b',
  github: 'ghp_canaryWrongGitHubPat0d2f4b6a8c',
  adoClientSecret: 'canary-wrong-entra-secret-1b3d5f7a',
};

/** A random Azure DevOps-shaped PAT (52 characters of base32), unlike any other text in a test. */
function base32Token(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(52)].map((b) => alphabet[b % 32]).join('');
}

/**
 * The first recognisable part of `secret` found in `text`, if any: the secret, any 10 characters of it
 * in a row, or its Basic-auth base64 forms (whole or any 16 characters of them).
 */
function leakedPart(text: string, secret: string): string | undefined {
  const windows = (value: string, size: number) =>
    Array.from({ length: Math.max(1, value.length - size + 1) }, (_, i) => value.slice(i, i + size));
  const base64 = [secret, `:${secret}`].map((v) => Buffer.from(v).toString('base64'));
  const parts = [secret, ...windows(secret, 10), ...base64, ...base64.flatMap((b) => windows(b.slice(4, -4), 16))];
  return parts.find((part) => part.length > 0 && text.includes(part));
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('provider connections, scopes, reviewer identity and discovery', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;
  const seen: ApiResponse[] = [];
  let clients = 0;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({ providers: fakes.providers, env: { LOG_LEVEL: 'trace' } });
    const login = await host.admin();
    admin = new RecordingApi(login.baseUrl, seen, login.credentials);
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });
  afterEach(async () => {
    await setEdition('Community');
  });

  const setEdition = async (edition: 'Community' | 'Commercial') => {
    expect((await admin.patch('/admin/licensing', { edition })).status).toBe(200);
  };
  const newClient = async () => {
    const res = await admin.post('/clients', { displayName: `SCM client ${++clients}`, tenantId: SYSTEM_TENANT_ID });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const connections = (clientId: string) => `/clients/${clientId}/provider-connections`;
  const create = async (clientId: string, body: Record<string, unknown>) => {
    const res = await admin.post(connections(clientId), body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string } & Record<string, unknown>;
  };
  /** A client with one connection and one enabled scope on it. */
  const scoped = async (body: Record<string, unknown>, scopePath: string) => {
    const clientId = await newClient();
    const connection = await create(clientId, body);
    const scope = await admin.post(`${connections(clientId)}/${connection.id}/scopes`, {
      scopeType: 'organization',
      scopePath,
    });
    expect(scope.status, JSON.stringify(scope.body)).toBe(201);
    return { clientId, connectionId: connection.id, scopeId: scope.body.id as string };
  };
  const expectValidation = (res: ApiResponse, details: Array<{ path: string; message: unknown }>) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    expect(res.body.details).toEqual(details);
  };

  describe('creating and reading connections', () => {
    it('answers 201 with every documented field and no secret, and lists and reads the same', async () => {
      const clientId = await newClient();
      const res = await admin.post(connections(clientId), { ...fakes.bodies.gitlab(), unknownField: 'ignored' });
      expect(res.status).toBe(201);
      const expected = {
        id: expect.any(String),
        clientId,
        providerFamily: 'gitHostB',
        authenticationKind: 'personalAccessToken',
        hostBaseUrl: fakes.gitlab.hostBaseUrl,
        displayName: 'GitLab',
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
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      };
      expect(res.body).toEqual(expected);
      expect((await admin.get(connections(clientId))).body).toEqual({ items: [res.body], nextCursor: null });
      expect((await admin.get(`${connections(clientId)}/${res.body.id}`)).body).toEqual(res.body);
      const stored = await host.storage.providerConnections.findById(res.body.id);
      expect(stored?.sealedSecret).toMatch(/^v2:/);
      expect(stored?.sealedSecret).not.toContain(SECRETS.gitlab);
    });

    it('stores the host without a trailing slash, lower-cases scheme and host, and defaults the display name', async () => {
      const clientId = await newClient();
      const created = await create(clientId, {
        ...fakes.bodies.gitlab(),
        hostBaseUrl: 'HTTPS://GitLab.Example.COM/Platform/',
        displayName: undefined,
        isActive: false,
      });
      expect(created).toMatchObject({
        hostBaseUrl: 'https://gitlab.example.com/Platform',
        displayName: 'https://gitlab.example.com/Platform',
        isActive: false,
      });
    });

    it('answers 400 naming every missing or malformed field', async () => {
      const clientId = await newClient();
      const post = (body: unknown) => admin.post(connections(clientId), body);
      expectValidation(await post({}), [
        { path: 'providerFamily', message: 'is required' },
        { path: 'authenticationKind', message: 'is required' },
        { path: 'hostBaseUrl', message: 'is required' },
        { path: 'secret', message: 'is required' },
      ]);
      const url = (hostBaseUrl: string) => post(fakes.bodies.gitlab({ hostBaseUrl }));
      const urlMessage = 'must be an absolute http(s) URL';
      expectValidation(await url('gitlab.example.com'), [{ path: 'hostBaseUrl', message: urlMessage }]);
      expectValidation(await url('ftp://gitlab.example.com'), [{ path: 'hostBaseUrl', message: urlMessage }]);
      expectValidation(await url('https://ada:hunter2@gitlab.example.com'), [
        { path: 'hostBaseUrl', message: 'must not contain credentials; put them in secret' },
      ]);
      expectValidation(await url('https://gitlab.example.com/?private_token=x'), [
        { path: 'hostBaseUrl', message: 'must not have a query or fragment' },
      ]);
      expectValidation(await url('http://169.254.169.254/latest'), [
        {
          path: 'hostBaseUrl',
          message: 'points at a cloud metadata endpoint (169.254.169.254), which Margin never calls',
        },
      ]);
      expectValidation(await url('https://metadata.google.internal'), [
        {
          path: 'hostBaseUrl',
          message: 'points at a cloud metadata endpoint (metadata.google.internal), which Margin never calls',
        },
      ]);
      expectValidation(await post(fakes.bodies.gitlab({ providerFamily: 'gitHostZ' })), [
        { path: 'providerFamily', message: 'must be one of suiteDevOps, gitHostA, gitHostB, gitHostC' },
      ]);
      expectValidation(await post(fakes.bodies.gitlab({ isActive: 'yes', secret: '   ' })), [
        { path: 'secret', message: 'is required' },
        { path: 'isActive', message: 'must be a boolean' },
      ]);
      expectValidation(await post(fakes.bodies.gitlab({ displayName: 'x'.repeat(201) })), [
        { path: 'displayName', message: 'must be at most 200 characters' },
      ]);
      expectValidation(await post(fakes.bodies.gitlab({ secret: 42 })), [
        { path: 'secret', message: 'must be a string' },
      ]);
      const malformed = await admin.post(connections(clientId), '{"providerFamily":');
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('validation_failed');
      expect((await admin.get(connections(clientId))).body.items).toEqual([]);
    });

    it('applies the support matrix: every supported family and kind is accepted, any other is 400 naming the accepted kinds', async () => {
      for (const body of [
        fakes.bodies.adoPat(),
        fakes.bodies.adoEntra(),
        fakes.bodies.github(),
        fakes.bodies.githubApp(),
        fakes.bodies.gitlab(),
        fakes.bodies.bitbucket(),
      ]) {
        await create(await newClient(), body);
      }
      const clientId = await newClient();
      const refused = async (providerFamily: string, authenticationKind: string, accepted: string) => {
        const res = await admin.post(
          connections(clientId),
          fakes.bodies.gitlab({ providerFamily, authenticationKind, oAuthTenantId: 't', oAuthClientId: 'c' }),
        );
        expectValidation(res, [
          {
            path: 'authenticationKind',
            message: `${providerFamily} connections do not accept authenticationKind '${authenticationKind}'; accepted: ${accepted}.`,
          },
        ]);
        expect(res.body.error).toContain(accepted);
      };
      await refused('suiteDevOps', 'appInstallation', 'oauthClientCredentials, personalAccessToken');
      await refused('gitHostA', 'oauthClientCredentials', 'personalAccessToken, appInstallation');
      await refused('gitHostB', 'oauthClientCredentials', 'personalAccessToken');
      await refused('gitHostB', 'appInstallation', 'personalAccessToken');
      await refused('gitHostC', 'appInstallation', 'personalAccessToken');
    });

    it('requires the fields of the authentication kind, and refuses those of another kind', async () => {
      const clientId = await newClient();
      const post = (body: unknown) => admin.post(connections(clientId), body);
      expectValidation(await post(fakes.bodies.adoEntra({ oAuthTenantId: undefined, oAuthClientId: '  ' })), [
        { path: 'oAuthTenantId', message: "is required for authenticationKind 'oauthClientCredentials'" },
        { path: 'oAuthClientId', message: "is required for authenticationKind 'oauthClientCredentials'" },
      ]);
      expectValidation(await post(fakes.bodies.githubApp({ hostedAppId: null, hostedAppInstallationId: undefined })), [
        { path: 'hostedAppId', message: "is required for authenticationKind 'appInstallation'" },
        { path: 'hostedAppInstallationId', message: "is required for authenticationKind 'appInstallation'" },
      ]);
      expectValidation(await post(fakes.bodies.githubApp({ hostedAppId: '424242' })), [
        { path: 'hostedAppId', message: 'must be a positive integer' },
      ]);
      expectValidation(await post(fakes.bodies.githubApp({ hostedAppInstallationId: -3 })), [
        { path: 'hostedAppInstallationId', message: 'must be a positive integer' },
      ]);
      expectValidation(await post(fakes.bodies.github({ hostedAppId: 5, oAuthTenantId: 'tenant' })), [
        { path: 'oAuthTenantId', message: "is only for authenticationKind 'oauthClientCredentials'" },
        { path: 'hostedAppId', message: "is only for authenticationKind 'appInstallation'" },
      ]);
      // Blank and null mean "not given", so a form may send every field.
      const lenient = await post(fakes.bodies.github({ oAuthTenantId: '', oAuthClientId: null, hostedAppId: null }));
      expect(lenient.status).toBe(201);
      expect(lenient.body).toMatchObject({ oAuthTenantId: null, oAuthClientId: null, hostedAppId: null });
    });

    it('refuses a second connection without multiple-scm-providers (409 license_required) and allows it with', async () => {
      const clientId = await newClient();
      await create(clientId, fakes.bodies.gitlab());
      const refused = await admin.post(connections(clientId), fakes.bodies.github());
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error:
          'More than one source-control connection per client needs a Commercial license (multiple-scm-providers).',
        code: 'license_required',
        capability: 'multiple-scm-providers',
        requestId: expect.any(String),
      });
      await setEdition('Commercial');
      await create(clientId, fakes.bodies.github());
      expect((await admin.get(connections(clientId))).body.items).toHaveLength(2);
      // Switched off by an override, Commercial refuses too.
      expect(
        (
          await admin.patch('/admin/licensing', {
            edition: 'Commercial',
            capabilityOverrides: [{ capability: 'multiple-scm-providers', overrideState: 'disabled' }],
          })
        ).status,
      ).toBe(200);
      const overridden = await admin.post(connections(clientId), fakes.bodies.bitbucket());
      expect(overridden.status).toBe(409);
      expect(overridden.body).toMatchObject({ code: 'license_required', capability: 'multiple-scm-providers' });
      await admin.patch('/admin/licensing', {
        edition: 'Commercial',
        capabilityOverrides: [{ capability: 'multiple-scm-providers', overrideState: 'default' }],
      });
    });

    it('refuses a duplicate (same family, same host up to case and trailing slash) with 409', async () => {
      await setEdition('Commercial');
      const clientId = await newClient();
      await create(clientId, fakes.bodies.github({ hostBaseUrl: 'https://github.com' }));
      const duplicate = await admin.post(
        connections(clientId),
        fakes.bodies.github({ hostBaseUrl: 'HTTPS://GitHub.com/', displayName: 'Again' }),
      );
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toMatchObject({
        code: 'conflict',
        error: 'This client already has a connection of this provider family to this host.',
      });
      // Another family on the same host, another host, and another client are all fine.
      await create(clientId, fakes.bodies.gitlab({ hostBaseUrl: 'https://github.com' }));
      await create(clientId, fakes.bodies.github({ hostBaseUrl: 'https://github.acme.example' }));
      await create(await newClient(), fakes.bodies.github({ hostBaseUrl: 'https://github.com' }));
      // Moving a connection onto a taken host is a duplicate too.
      const list = (await admin.get(connections(clientId))).body.items;
      const enterprise = list.find((c: { hostBaseUrl: string }) => c.hostBaseUrl === 'https://github.acme.example');
      const moved = await admin.patch(`${connections(clientId)}/${enterprise.id}`, {
        hostBaseUrl: 'https://github.com/',
        secret: SECRETS.github,
      });
      expect(moved.status).toBe(409);
      expect(moved.body.code).toBe('conflict');
    });

    it('answers 404 for an unknown connection and for another client’s, without confirming it exists', async () => {
      const [mine, theirs] = [await newClient(), await newClient()];
      const theirConnection = await create(theirs, fakes.bodies.gitlab());
      const path = `${connections(mine)}/${theirConnection.id}`;
      for (const res of [
        await admin.get(path),
        await admin.patch(path, { displayName: 'Stolen' }),
        await admin.post(`${path}/verify`),
        await admin.delete(path),
        await admin.get(`${path}/scopes`),
        await admin.post(`${path}/scopes`, { scopeType: 'organization', scopePath: fakes.scopePaths.gitlab }),
        await admin.get(`${path}/reviewer-identity`),
        await admin.put(`${path}/reviewer-identity`, { externalUserId: '1', login: 'x' }),
        await admin.get(`${path}/reviewer-identities/resolve?search=ada`),
        await admin.get(`${connections(mine)}/00000000-0000-4000-8000-00000000beef`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found', error: 'Provider connection not found.' });
      }
      expect((await admin.get(`${connections(theirs)}/${theirConnection.id}`)).body.displayName).toBe('GitLab');
    });
  });

  describe('changing and deleting connections', () => {
    it('keeps verification for a new name or state, resets it for new credentials or host, and keeps the secret when none is sent', async () => {
      const clientId = await newClient();
      const { id } = await create(clientId, fakes.bodies.github());
      const path = `${connections(clientId)}/${id}`;
      const verify = async () => (await admin.post(`${path}/verify`)).body;
      expect((await verify()).verificationStatus).toBe('verified');

      const renamed = await admin.patch(path, { displayName: 'GitHub Enterprise', isActive: false });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toMatchObject({
        displayName: 'GitHub Enterprise',
        isActive: false,
        verificationStatus: 'verified',
      });
      for (const keep of [{ secret: '' }, { secret: '   ' }, { secret: null }, {}]) {
        expect((await admin.patch(path, keep)).body.verificationStatus).toBe('verified');
      }
      expect((await verify()).verificationStatus).toBe('verified');
      const sameHost = await admin.patch(path, { hostBaseUrl: `${fakes.github.hostUrl}/` });
      expect(sameHost.body.verificationStatus).toBe('verified');

      const wrongSecret = await admin.patch(path, { secret: WRONG.github });
      expect(wrongSecret.body).toMatchObject({
        verificationStatus: 'neverVerified',
        lastVerifiedAt: null,
        lastVerificationError: null,
        hasSecret: true,
      });
      expect((await verify()).verificationStatus).toBe('failed');
      expect((await admin.patch(path, { secret: SECRETS.github })).body.verificationStatus).toBe('neverVerified');
      expect((await verify()).verificationStatus).toBe('verified');

      const moved = await admin.patch(path, { hostBaseUrl: 'https://github.acme.example', secret: SECRETS.github });
      expect(moved.body).toMatchObject({
        hostBaseUrl: 'https://github.acme.example',
        verificationStatus: 'neverVerified',
      });
      // Unknown and immutable fields are ignored.
      const ignored = await admin.patch(path, { providerFamily: 'gitHostB', authenticationKind: 'appInstallation' });
      expect(ignored.body).toMatchObject({ providerFamily: 'gitHostA', authenticationKind: 'personalAccessToken' });
    });

    it('sends a stored secret only to the host it was given for: a new host needs the secret again (400 naming it)', async () => {
      const elsewhere = await startFakeHttpServer();
      try {
        elsewhere.on('GET', '/api/v4/user', () => ({ json: { id: 1, username: 'someone', name: 'Someone' } }));
        const clientId = await newClient();
        const { id } = await create(clientId, fakes.bodies.gitlab());
        const path = `${connections(clientId)}/${id}`;
        expect((await admin.post(`${path}/verify`)).body.verificationStatus).toBe('verified');
        for (const patch of [
          { hostBaseUrl: elsewhere.url },
          { hostBaseUrl: elsewhere.url, secret: '   ' },
          { hostBaseUrl: elsewhere.url, secret: null },
          { hostBaseUrl: `${fakes.gitlab.hostBaseUrl}/other-path` },
        ]) {
          const res = await admin.patch(path, patch);
          expect(res.status, JSON.stringify(patch)).toBe(400);
          expect(res.body).toMatchObject({
            code: 'validation_failed',
            details: [
              {
                path: 'secret',
                message:
                  'is required again when hostBaseUrl changes: a stored secret is only sent to the host it was given for.',
              },
            ],
          });
        }
        const stored = (await admin.get(path)).body;
        expect(stored).toMatchObject({ hostBaseUrl: fakes.gitlab.hostBaseUrl, verificationStatus: 'verified' });
        expect((await admin.post(`${path}/verify`)).body.verificationStatus).toBe('verified');
        expect(elsewhere.requests).toEqual([]);

        // Given again, the secret goes to the new host, and only the new one.
        const moved = await admin.patch(path, { hostBaseUrl: elsewhere.url, secret: WRONG.gitlab });
        expect(moved.body).toMatchObject({ hostBaseUrl: elsewhere.url, verificationStatus: 'neverVerified' });
        expect((await admin.post(`${path}/verify`)).body.verificationStatus).toBe('verified');
        expect(elsewhere.requests.map((r) => r.headers['private-token'])).toEqual([WRONG.gitlab]);
      } finally {
        await elsewhere.close();
      }
    });

    it('uses a stored secret only for the tenant, app and installation it was given for: changing one needs the secret again (400 naming it)', async () => {
      const cases: Array<{ body: Record<string, unknown>; secret: string; changes: Array<Record<string, unknown>> }> = [
        {
          body: fakes.bodies.adoEntra(),
          secret: SECRETS.adoClientSecret,
          changes: [
            { oAuthTenantId: 'attacker-tenant' },
            { oAuthClientId: 'attacker-app' },
            { oAuthTenantId: 'attacker-tenant', secret: '  ' },
          ],
        },
        {
          body: fakes.bodies.githubApp(),
          secret: fakes.githubAppKey,
          changes: [
            { hostedAppId: GITHUB_APP.id + 1 },
            { hostedAppInstallationId: GITHUB_APP.installationId + 1 },
            { hostedAppInstallationId: GITHUB_APP.installationId + 1, secret: null },
          ],
        },
      ];
      for (const { body, secret, changes } of cases) {
        const clientId = await newClient();
        const { id } = await create(clientId, body);
        const path = `${connections(clientId)}/${id}`;
        expect((await admin.post(`${path}/verify`)).body.verificationStatus).toBe('verified');
        const before = (await admin.get(path)).body;
        for (const patch of changes) {
          const res = await admin.patch(path, patch);
          const field = Object.keys(patch).find((k) => k !== 'secret');
          expect(res.status, JSON.stringify(patch)).toBe(400);
          expect(res.body).toMatchObject({
            code: 'validation_failed',
            details: [
              {
                path: 'secret',
                message: `is required again when ${field} changes: a stored secret is only used for the host, tenant, application and installation it was given for.`,
              },
            ],
          });
        }
        // Nothing changed; the same values again need no secret.
        expect((await admin.get(path)).body).toEqual(before);
        const same = await admin.patch(path, {
          oAuthTenantId: body.oAuthTenantId ?? undefined,
          oAuthClientId: body.oAuthClientId ?? undefined,
          hostedAppId: body.hostedAppId ?? undefined,
          hostedAppInstallationId: body.hostedAppInstallationId ?? undefined,
        });
        expect(same.status, JSON.stringify(same.body)).toBe(200);
        expect(same.body.verificationStatus).toBe('verified');
        // Given again, the change is made and resets verification.
        const withSecret = await admin.patch(path, { ...changes[0], secret });
        expect(withSecret.status, JSON.stringify(withSecret.body)).toBe(200);
        expect(withSecret.body).toMatchObject({ ...changes[0], verificationStatus: 'neverVerified' });
      }
      // The refused changes never reached a provider with the stored secret.
      expect(fakes.ado.server.requests.some((r) => r.path.startsWith('/attacker-tenant/'))).toBe(false);
      expect(
        fakes.github.server.requests.some((r) =>
          r.path.includes(`/app/installations/${GITHUB_APP.installationId + 1}/`),
        ),
      ).toBe(false);
    });

    it('binds each sealed secret to its row: a secret copied into another connection’s row never opens there', async () => {
      const elsewhere = await startFakeHttpServer();
      try {
        elsewhere.on('GET', '/api/v4/user', () => ({ json: { id: 1, username: 'someone', name: 'Someone' } }));
        const victim = await create(await newClient(), fakes.bodies.gitlab());
        const otherClient = await newClient();
        const thief = await create(
          otherClient,
          fakes.bodies.gitlab({ hostBaseUrl: elsewhere.url, secret: 'x'.repeat(20) }),
        );
        // Someone with write access to the database moves the sealed value across rows.
        const { sealed_secret } = await host.storage.knex('provider_connections').where({ id: victim.id }).first();
        await host.storage.knex('provider_connections').where({ id: thief.id }).update({ sealed_secret });
        const res = await admin.post(`${connections(otherClient)}/${thief.id}/verify`);
        expect(res.status).toBe(500);
        expect(res.body).toMatchObject({
          code: 'internal',
          error: 'A stored secret could not be decrypted with the configured secrets key.',
        });
        expect(elsewhere.requests).toEqual([]);
      } finally {
        await elsewhere.close();
      }
    });

    it('validates a change, including the fields of the connection’s authentication kind', async () => {
      const clientId = await newClient();
      await setEdition('Commercial');
      const pat = await create(clientId, fakes.bodies.github());
      const entra = await create(clientId, fakes.bodies.adoEntra());
      const patPath = `${connections(clientId)}/${pat.id}`;
      expectValidation(await admin.patch(patPath, { hostBaseUrl: 'not a url' }), [
        { path: 'hostBaseUrl', message: 'must be an absolute http(s) URL' },
      ]);
      expectValidation(await admin.patch(patPath, { isActive: 'no', displayName: '' }), [
        { path: 'displayName', message: 'must not be blank' },
        { path: 'isActive', message: 'must be a boolean' },
      ]);
      expectValidation(await admin.patch(patPath, { hostedAppId: 5 }), [
        { path: 'hostedAppId', message: "is only for authenticationKind 'appInstallation'" },
      ]);
      const entraPath = `${connections(clientId)}/${entra.id}`;
      expect((await admin.post(`${entraPath}/verify`)).body.verificationStatus).toBe('verified');
      const rotated = await admin.patch(entraPath, { oAuthClientId: 'margin-app-2', secret: SECRETS.adoClientSecret });
      expect(rotated.status).toBe(200);
      expect(rotated.body).toMatchObject({ oAuthClientId: 'margin-app-2', verificationStatus: 'neverVerified' });
      const unchanged = await admin.patch(entraPath, { oAuthTenantId: 'contoso-tenant' });
      expect(unchanged.body.verificationStatus).toBe('neverVerified');
    });

    it('deletes a connection with its scopes and reviewer identity (204), then answers 404', async () => {
      const { clientId, connectionId, scopeId } = await scoped(fakes.bodies.gitlab(), fakes.scopePaths.gitlab);
      const path = `${connections(clientId)}/${connectionId}`;
      expect((await admin.put(`${path}/reviewer-identity`, { externalUserId: '99', login: 'margin-bot' })).status).toBe(
        200,
      );
      const res = await admin.delete(path);
      expect(res.status).toBe(204);
      expect(res.body).toBeUndefined();
      expect((await admin.get(path)).status).toBe(404);
      expect((await admin.get(`${path}/scopes`)).status).toBe(404);
      expect((await admin.delete(path)).status).toBe(404);
      expect(await host.storage.providerScopes.findById(scopeId)).toBeUndefined();
      expect(await host.storage.reviewerIdentities.findByConnection(connectionId)).toBeUndefined();
      // The client may connect again, even in Community.
      await create(clientId, fakes.bodies.gitlab());
    });
  });

  describe('verification', () => {
    it('verifies against every provider family and authentication kind', async () => {
      for (const body of [
        fakes.bodies.gitlab(),
        fakes.bodies.github(),
        fakes.bodies.githubApp(),
        fakes.bodies.adoPat(),
        fakes.bodies.adoEntra(),
        fakes.bodies.bitbucket(),
      ]) {
        const clientId = await newClient();
        const { id } = await create(clientId, body);
        const res = await admin.post(`${connections(clientId)}/${id}/verify`);
        expect(res.status, `${body.displayName}: ${JSON.stringify(res.body)}`).toBe(200);
        expect(res.body).toMatchObject({
          id,
          verificationStatus: 'verified',
          lastVerifiedAt: expect.stringMatching(ISO),
          lastVerificationError: null,
          lastVerificationFailureCategory: null,
        });
        expect((await admin.get(`${connections(clientId)}/${id}`)).body).toEqual(res.body);
      }
    });

    it('records a refusal (401) as failed with a summary, never the secret, and answers 200', async () => {
      for (const body of [
        fakes.bodies.gitlab({ secret: WRONG.gitlab }),
        fakes.bodies.github({ secret: WRONG.github }),
        fakes.bodies.adoEntra({ secret: WRONG.adoClientSecret }),
        fakes.bodies.bitbucket({ secret: BITBUCKET_BAD_ACCESS_TOKEN }),
      ]) {
        const clientId = await newClient();
        const { id } = await create(clientId, body);
        const res = await admin.post(`${connections(clientId)}/${id}/verify`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          verificationStatus: 'failed',
          lastVerifiedAt: expect.stringMatching(ISO),
          lastVerificationError: expect.any(String),
          lastVerificationFailureCategory: 'credentials',
        });
        expect(res.body.lastVerificationError.length).toBeGreaterThan(0);
        expect(JSON.stringify(res.body)).not.toContain(String(body.secret));
        // A later success clears the failure.
        const fixed = await admin.patch(`${connections(clientId)}/${id}`, {
          secret: {
            gitHostB: SECRETS.gitlab,
            gitHostA: SECRETS.github,
            suiteDevOps: SECRETS.adoClientSecret,
            gitHostC: SECRETS.bitbucket,
          }[String(body.providerFamily)],
        });
        expect(fixed.status).toBe(200);
        const again = await admin.post(`${connections(clientId)}/${id}/verify`);
        expect(again.body).toMatchObject({
          verificationStatus: 'verified',
          lastVerificationError: null,
          lastVerificationFailureCategory: null,
        });
      }
    });

    it('never follows a redirect to another host: the stored token stays with the host it was given for', async () => {
      const elsewhere = await startFakeHttpServer();
      const redirector = await startFakeHttpServer();
      try {
        elsewhere.on('GET', '/api/v4/user', () => ({ json: { id: 1, username: 'thief', name: 'Thief' } }));
        redirector.on('GET', '/api/v4/user', () => ({
          status: 302,
          headers: { location: `${elsewhere.url}/api/v4/user` },
        }));
        const clientId = await newClient();
        const { id } = await create(clientId, fakes.bodies.gitlab({ hostBaseUrl: redirector.url }));
        const res = await admin.post(`${connections(clientId)}/${id}/verify`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          verificationStatus: 'failed',
          lastVerificationFailureCategory: 'egressRefused',
          lastVerificationError: `Margin refused to call ${redirector.url}: it redirected elsewhere, or resolved to a link-local, reserved or cloud metadata address.`,
        });
        expect(redirector.requests).toHaveLength(1);
        expect(elsewhere.requests).toEqual([]);
      } finally {
        await Promise.all([elsewhere.close(), redirector.close()]);
      }
    });

    it('stores a sanitised summary of a refusal, never the provider’s own answer', async () => {
      const chatty = await startFakeHttpServer();
      try {
        chatty.on('GET', '/api/v4/user', () => ({
          status: 401,
          json: { message: 'INTERNAL-BANNER build 7.3 db=10.0.0.5 admin contact ops@corp.internal' },
        }));
        const clientId = await newClient();
        const { id } = await create(clientId, fakes.bodies.gitlab({ hostBaseUrl: chatty.url }));
        const res = await admin.post(`${connections(clientId)}/${id}/verify`);
        expect(res.body).toMatchObject({
          verificationStatus: 'failed',
          lastVerificationFailureCategory: 'credentials',
          lastVerificationError: 'GitLab refused the credentials (HTTP 401).',
        });
        expect(JSON.stringify(res.body)).not.toContain('INTERNAL-BANNER');
      } finally {
        await chatty.close();
      }
    });

    it('stores, answers and logs nothing of a credential the provider reflects, in verification or a failure answer', async () => {
      const reflector = await startFakeHttpServer();
      const tokens = { gitHostA: `ghp_${randomBytes(18).toString('hex')}`, suiteDevOps: base32Token() };
      // The provider echoes what it was sent: the Authorization header, its decoded form, and the token's halves.
      const echo = (req: FakeRequest) => {
        const authorization = String(req.headers.authorization ?? '');
        const basic = authorization.startsWith('Basic ')
          ? Buffer.from(authorization.slice(6), 'base64').toString('utf8')
          : '';
        const token = authorization.replace(/^(Bearer|token|Basic)\s+/i, '');
        return `REFLECTED: you sent ${authorization} (${basic}); token ${token.slice(0, 16)} / ${token.slice(16)}`;
      };
      const answers: Array<[string, (req: FakeRequest) => FakeReply]> = [
        ['401', (req) => ({ status: 401, json: { message: echo(req) }, headers: { 'www-authenticate': echo(req) } })],
        ['403', (req) => ({ status: 403, json: { message: echo(req), errors: [{ message: echo(req) }] } })],
        ['404', (req) => ({ status: 404, json: { message: echo(req) } })],
        ['422', (req) => ({ status: 422, json: { message: echo(req), errors: [{ message: echo(req) }] } })],
        ['429', (req) => ({ status: 429, headers: { 'retry-after': '3600' }, json: { message: echo(req) } })],
        ['200 not JSON', (req) => ({ status: 200, text: echo(req) })],
        ['503', (req) => ({ status: 503, headers: { 'retry-after': '3600' }, text: echo(req) })],
        [
          'redirect',
          (req) => ({
            status: 302,
            headers: { location: `http://127.0.0.1:1/steal?echo=${encodeURIComponent(echo(req))}` },
          }),
        ],
      ];
      let answer: (req: FakeRequest) => FakeReply = () => ({ status: 500 });
      reflector.on('GET', '/*', (req) => answer(req));
      reflector.on('POST', '/*', (req) => answer(req));
      const answered: ApiResponse[] = [];
      const logsBefore = host.rawLogs().length;
      try {
        const bodies = [
          fakes.bodies.github({ hostBaseUrl: reflector.url, secret: tokens.gitHostA }),
          fakes.bodies.adoPat({ hostBaseUrl: `${reflector.url}/contoso`, secret: tokens.suiteDevOps }),
        ];
        for (const body of bodies) {
          const clientId = await newClient();
          const { id } = await create(clientId, body);
          for (const [what, reply] of answers) {
            answer = reply;
            const before = reflector.requests.length;
            const res = await admin.post(`${connections(clientId)}/${id}/verify`);
            answered.push(
              res,
              await admin.get(`${connections(clientId)}/${id}`),
              await admin.get(connections(clientId)),
            );
            expect(res.status, `${body.providerFamily} ${what}`).toBe(200);
            expect(res.body.verificationStatus, `${body.providerFamily} ${what}`).toBe('failed');
            // It reached the provider with the token, and the provider did reflect it.
            expect(reflector.requests.length).toBeGreaterThan(before);
            const reflected = echo(reflector.requests.at(-1) as FakeRequest);
            expect(leakedPart(reflected, String(body.secret)), 'the fake reflects the token').toBeDefined();
            const stored = await host.storage.providerConnections.findById(id);
            expect(stored?.lastVerificationError).toEqual(res.body.lastVerificationError);
            expect(stored?.lastVerificationError, what).not.toContain('REFLECTED');
            for (const text of [stored?.lastVerificationError ?? '', JSON.stringify(res.body)])
              expect(leakedPart(text, String(body.secret)), `${body.providerFamily} ${what}`).toBeUndefined();
          }
          // Calls that answer with the provider's failure (502) rather than store a summary.
          answer = answers[0]?.[1] ?? answer;
          const scope = await admin.post(`${connections(clientId)}/${id}/scopes`, {
            scopeType: 'organization',
            scopePath: `${body.hostBaseUrl}/acme`,
          });
          expect(scope.status, JSON.stringify(scope.body)).toBe(201);
          for (const res of [
            await admin.get(`${connections(clientId)}/${id}/reviewer-identities/resolve?search=ada`),
            await admin.get(
              `/admin/clients/${clientId}/devops/discovery/projects?organizationScopeId=${scope.body.id}`,
            ),
          ]) {
            answered.push(res);
            expect(res.status, JSON.stringify(res.body)).toBe(502);
            expect(res.body).toMatchObject({ code: 'provider_unavailable', providerFailure: 'credentials' });
            expect(leakedPart(JSON.stringify(res.body), String(body.secret)), JSON.stringify(res.body)).toBeUndefined();
          }
        }
        // The real fakes reflecting the credential they were sent: GitHub's PAT, Azure DevOps' Entra client secret.
        // Azure DevOps asks Entra for a fresh token once more after a 401, so it is refused twice.
        const cases: Array<[Record<string, unknown>, FakeHttpServer, string, number]> = [
          [fakes.bodies.github(), fakes.github.server, SECRETS.github, 1],
          [fakes.bodies.adoEntra(), fakes.ado.server, SECRETS.adoClientSecret, 2],
        ];
        for (const [body, server, secret, refusals] of cases) {
          const clientId = await newClient();
          const { id } = await create(clientId, body);
          const before = server.requests.length;
          for (let i = 0; i < refusals; i++)
            server.interceptNext({
              status: 401,
              json: { message: `REFLECTED bad credentials ${secret}`, error_description: secret },
            });
          const res = await admin.post(`${connections(clientId)}/${id}/verify`);
          answered.push(res);
          // Every refusal was used up, so nothing is left over for the fake's later callers.
          expect(server.requests.length - before, String(body.displayName)).toBe(refusals);
          expect(res.body, String(body.displayName)).toMatchObject({
            verificationStatus: 'failed',
            lastVerificationFailureCategory: 'credentials',
          });
          const stored = await host.storage.providerConnections.findById(id);
          expect(leakedPart(stored?.lastVerificationError ?? '', secret)).toBeUndefined();
          expect(leakedPart(JSON.stringify(res.body), secret)).toBeUndefined();
        }
        const texts = answered.map((res) => `${JSON.stringify(res.body)} ${JSON.stringify([...res.headers])}`);
        const logs = host.rawLogs().slice(logsBefore);
        expect(logs.length).toBeGreaterThan(0);
        for (const secret of Object.values(tokens)) {
          for (const text of texts) expect(leakedPart(text, secret), 'a response').toBeUndefined();
          expect(leakedPart(logs, secret), 'the log').toBeUndefined();
        }
        for (const secret of [SECRETS.github, SECRETS.adoClientSecret]) {
          for (const text of [...texts, logs]) expect(text).not.toContain(secret);
        }
      } finally {
        await reflector.close();
      }
    });

    it('records an unreachable host as failed', async () => {
      const clientId = await newClient();
      const { id } = await create(clientId, fakes.bodies.gitlab({ hostBaseUrl: 'http://127.0.0.1:1' }));
      const res = await admin.post(`${connections(clientId)}/${id}/verify`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        verificationStatus: 'failed',
        lastVerificationError: expect.any(String),
        lastVerificationFailureCategory: expect.stringMatching(/^(unavailable|timeout)$/),
      });
    });
  });

  describe('scopes', () => {
    it('creates, lists, changes and deletes scopes', async () => {
      const clientId = await newClient();
      const { id: connectionId } = await create(clientId, fakes.bodies.github());
      const scopes = `${connections(clientId)}/${connectionId}/scopes`;
      const created = await admin.post(scopes, {
        scopeType: 'organization',
        scopePath: 'https://github.com/acme/',
        externalScopeId: '1001',
        displayName: 'Acme',
        unknown: true,
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        clientId,
        connectionId,
        scopeType: 'organization',
        externalScopeId: '1001',
        scopePath: 'https://github.com/acme',
        displayName: 'Acme',
        isEnabled: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      const second = await admin.post(scopes, { scopeType: 'repository', scopePath: 'https://github.com/acme/app' });
      expect(second.body).toMatchObject({
        displayName: 'https://github.com/acme/app',
        externalScopeId: null,
        isEnabled: true,
      });
      expect((await admin.get(scopes)).body).toEqual({ items: [created.body, second.body], nextCursor: null });
      const page = await admin.get(`${scopes}?limit=1`);
      expect(page.body.items).toEqual([created.body]);
      expect((await admin.get(`${scopes}?limit=1&cursor=${page.body.nextCursor}`)).body).toEqual({
        items: [second.body],
        nextCursor: null,
      });

      const patched = await admin.patch(`${scopes}/${second.body.id}`, {
        isEnabled: false,
        displayName: 'App',
        scopeType: 'project',
        externalScopeId: null,
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ isEnabled: false, displayName: 'App', scopeType: 'project' });
      expect((await admin.delete(`${scopes}/${second.body.id}`)).status).toBe(204);
      expect((await admin.delete(`${scopes}/${second.body.id}`)).status).toBe(404);
      expect((await admin.get(scopes)).body.items).toEqual([created.body]);
    });

    it('refuses a duplicate scope path on the connection (409), whatever its case or trailing slash', async () => {
      await setEdition('Commercial');
      const clientId = await newClient();
      const one = await create(clientId, fakes.bodies.github());
      const two = await create(clientId, fakes.bodies.gitlab());
      const scopes = (c: string) => `${connections(clientId)}/${c}/scopes`;
      const body = { scopeType: 'organization', scopePath: 'https://github.com/acme' };
      expect((await admin.post(scopes(one.id), body)).status).toBe(201);
      const dup = await admin.post(scopes(one.id), { ...body, scopePath: 'https://GITHUB.com/Acme/' });
      expect(dup.status).toBe(409);
      expect(dup.body).toMatchObject({
        code: 'conflict',
        error: 'This provider connection already has a scope with this path.',
      });
      expect((await admin.post(scopes(two.id), body)).status).toBe(201);
      const other = await admin.post(scopes(one.id), { ...body, scopePath: 'https://github.com/other' });
      const moved = await admin.patch(`${scopes(one.id)}/${other.body.id}`, { scopePath: 'https://github.com/ACME' });
      expect(moved.status).toBe(409);
    });

    it('validates scopes and answers 404 for unknown ones', async () => {
      const clientId = await newClient();
      const { id } = await create(clientId, fakes.bodies.github());
      const scopes = `${connections(clientId)}/${id}/scopes`;
      expectValidation(await admin.post(scopes, {}), [
        { path: 'scopeType', message: 'is required' },
        { path: 'scopePath', message: 'is required' },
      ]);
      expectValidation(await admin.post(scopes, { scopeType: 'team', scopePath: 'acme', isEnabled: 1 }), [
        { path: 'scopeType', message: 'must be one of organization, project, repository' },
        { path: 'scopePath', message: 'must be an absolute http(s) URL' },
        { path: 'isEnabled', message: 'must be a boolean' },
      ]);
      const unknown = await admin.patch(`${scopes}/00000000-0000-4000-8000-00000000beef`, { isEnabled: false });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ code: 'not_found', error: 'Provider scope not found.' });
      // A scope reached through another connection's path is not found either.
      await setEdition('Commercial');
      const other = await create(clientId, fakes.bodies.gitlab());
      const scope = await admin.post(`${connections(clientId)}/${other.id}/scopes`, {
        scopeType: 'organization',
        scopePath: fakes.scopePaths.gitlab,
      });
      expect((await admin.delete(`${scopes}/${scope.body.id}`)).status).toBe(404);
    });
  });

  describe('reviewer identity', () => {
    it('resolves candidates from the provider, in the first enabled scope', async () => {
      const gitlab = await scoped(fakes.bodies.gitlab(), fakes.scopePaths.gitlab);
      const resolve = (c: { clientId: string; connectionId: string }, query: string) =>
        admin.get(`${connections(c.clientId)}/${c.connectionId}/reviewer-identities/resolve${query}`);
      const found = await resolve(gitlab, '?search=ad');
      expect(found.status).toBe(200);
      expect(found.body).toEqual({
        items: [{ externalUserId: '7', login: 'ada', displayName: 'Ada Lovelace', isBot: false }],
      });
      expect((await resolve(gitlab, '?search=nobody')).body).toEqual({ items: [] });

      const ado = await scoped(fakes.bodies.adoPat(), fakes.scopePaths.ado);
      expect((await resolve(ado, '?search=ada')).body.items).toEqual([
        expect.objectContaining({ externalUserId: 'd6245f20-2af8-44f4-9451-8107cb2767db', login: 'ada' }),
      ]);

      // Bitbucket searches a workspace's members: the host alone names none; the enabled scope does.
      const clientId = await newClient();
      const { id: connectionId } = await create(clientId, fakes.bodies.bitbucket());
      const bitbucket = { clientId, connectionId };
      const noScope = await resolve(bitbucket, '?search=grace');
      expect(noScope.status).toBe(400);
      expect(noScope.body.error).toContain('names no Bitbucket workspace');
      const scopes = `${connections(clientId)}/${connectionId}/scopes`;
      await admin.post(scopes, {
        scopeType: 'organization',
        scopePath: 'https://bitbucket.org/ghost',
        isEnabled: false,
      });
      await admin.post(scopes, { scopeType: 'organization', scopePath: fakes.scopePaths.bitbucket });
      expect((await resolve(bitbucket, '?search=grace')).body.items).toEqual([
        expect.objectContaining({ login: 'grace', displayName: 'Grace Hopper' }),
      ]);
    });

    it('needs a search text (400)', async () => {
      const gitlab = await scoped(fakes.bodies.gitlab(), fakes.scopePaths.gitlab);
      const base = `${connections(gitlab.clientId)}/${gitlab.connectionId}/reviewer-identities/resolve`;
      expectValidation(await admin.get(base), [{ path: 'search', message: 'is required' }]);
      expectValidation(await admin.get(`${base}?search=%20%20`), [{ path: 'search', message: 'is required' }]);
      expectValidation(await admin.get(`${base}?search=a&search=b`), [{ path: 'search', message: 'must be a string' }]);
    });

    it('answers a provider failure with its error (502) and no secret', async () => {
      const bad = await scoped(fakes.bodies.gitlab({ secret: WRONG.gitlab }), fakes.scopePaths.gitlab);
      const res = await admin.get(
        `${connections(bad.clientId)}/${bad.connectionId}/reviewer-identities/resolve?search=ada`,
      );
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ code: 'provider_unavailable', providerFailure: 'credentials' });
      expect(JSON.stringify(res.body)).not.toContain(WRONG.gitlab);
    });

    it('stores one identity per connection: 404 before, PUT sets and replaces it, GET reads it', async () => {
      const clientId = await newClient();
      const { id: connectionId } = await create(clientId, fakes.bodies.gitlab());
      const path = `${connections(clientId)}/${connectionId}/reviewer-identity`;
      const none = await admin.get(path);
      expect(none.status).toBe(404);
      expect(none.body).toMatchObject({ code: 'not_found' });
      const first = await admin.put(path, { externalUserId: '99', login: 'margin-bot', isBot: true, extra: 1 });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        clientId,
        connectionId,
        externalUserId: '99',
        login: 'margin-bot',
        displayName: 'margin-bot',
        isBot: true,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect((await admin.get(path)).body).toEqual(first.body);
      const second = await admin.put(path, { externalUserId: '7', login: 'ada', displayName: 'Ada Lovelace' });
      expect(second.body).toMatchObject({
        externalUserId: '7',
        login: 'ada',
        displayName: 'Ada Lovelace',
        isBot: false,
        createdAt: first.body.createdAt,
      });
      expectValidation(await admin.put(path, {}), [
        { path: 'externalUserId', message: 'is required' },
        { path: 'login', message: 'is required' },
      ]);
      expectValidation(await admin.put(path, { externalUserId: ' ', login: 'x', isBot: 'yes' }), [
        { path: 'externalUserId', message: 'must not be blank' },
        { path: 'isBot', message: 'must be a boolean' },
      ]);
    });
  });

  describe('discovery', () => {
    const discover = (clientId: string, what: string, query: Record<string, string>) =>
      admin.get(`/admin/clients/${clientId}/devops/discovery/${what}?${new URLSearchParams(query)}`);

    it('lists GitLab groups, projects, branches and ready-made repository filters', async () => {
      const { clientId, scopeId } = await scoped(fakes.bodies.gitlab(), fakes.scopePaths.gitlab);
      const q = { organizationScopeId: scopeId };
      const projects = await discover(clientId, 'projects', q);
      expect(projects.status).toBe(200);
      expect(projects.body).toEqual({
        items: [
          { projectId: 'acme', providerProjectKey: 'acme', displayName: 'Acme' },
          { projectId: 'acme/platform', providerProjectKey: 'acme/platform', displayName: 'Acme / Platform' },
        ],
        truncated: false,
      });
      const sources = await discover(clientId, 'sources', { ...q, projectId: 'acme', sourceKind: 'repository' });
      expect(sources.body).toEqual({
        items: [
          {
            canonicalSourceRef: { provider: 'gitHostB', value: String(GITLAB_PROJECT_ID) },
            displayName: 'uploader',
            defaultBranch: 'main',
            webUrl: 'https://gitlab.example.com/acme/uploader',
          },
          expect.objectContaining({ canonicalSourceRef: { provider: 'gitHostB', value: '1002' } }),
        ],
        truncated: false,
        warnings: [],
      });
      const branches = await discover(clientId, 'branches', {
        ...q,
        projectId: 'acme',
        sourceKind: 'repository',
        canonicalSourceProvider: 'gitHostB',
        canonicalSourceValue: String(GITLAB_PROJECT_ID),
      });
      expect(branches.body).toEqual({
        items: [{ branchName: 'main' }, { branchName: 'feature/retries' }, { branchName: 'deps' }],
        truncated: false,
      });
      const filters = await discover(clientId, 'crawl-filters', { ...q, projectId: 'acme' });
      expect(filters.body.items[0]).toEqual({
        repositoryName: 'uploader',
        displayName: 'uploader',
        canonicalSourceRef: { provider: 'gitHostB', value: String(GITLAB_PROJECT_ID) },
        targetBranchPatterns: ['main'],
      });
      expect(filters.body.truncated).toBe(false);
    });

    it('lists GitHub owners, repositories (archived ones left out) and paged branches', async () => {
      const { clientId, scopeId } = await scoped(fakes.bodies.github(), fakes.scopePaths.github);
      const q = { organizationScopeId: scopeId };
      expect((await discover(clientId, 'projects', q)).body.items).toEqual([
        { projectId: 'acme', providerProjectKey: 'acme', displayName: 'Acme Corp' },
      ]);
      expect((await discover(clientId, 'sources', { ...q, projectId: 'acme' })).body.items).toEqual([
        {
          canonicalSourceRef: { provider: 'gitHostA', value: '987654321' },
          displayName: 'uploader',
          defaultBranch: 'main',
          webUrl: 'https://github.com/acme/uploader',
        },
      ]);
      const branches = await discover(clientId, 'branches', {
        ...q,
        projectId: 'acme',
        canonicalSourceProvider: 'gitHostA',
        canonicalSourceValue: '987654321',
      });
      expect(branches.body.items.map((b: { branchName: string }) => b.branchName)).toEqual([
        'main',
        'feature/retries',
        'deps',
      ]);
      expect((await discover(clientId, 'crawl-filters', { ...q, projectId: 'acme' })).body.items).toEqual([
        {
          repositoryName: 'uploader',
          displayName: 'uploader',
          canonicalSourceRef: { provider: 'gitHostA', value: '987654321' },
          targetBranchPatterns: ['main'],
        },
      ]);
    });

    it('lists Azure DevOps projects, repositories (disabled ones left out), branches, and wikis', async () => {
      const { clientId, scopeId } = await scoped(fakes.bodies.adoPat(), fakes.scopePaths.ado);
      const q = { organizationScopeId: scopeId };
      expect(
        (await discover(clientId, 'projects', q)).body.items.map((p: { projectId: string }) => p.projectId),
      ).toEqual(['Web Platform', 'Data', 'Infrastructure']);
      const sources = await discover(clientId, 'sources', { ...q, projectId: 'Web Platform' });
      expect(sources.body.items).toEqual([
        {
          canonicalSourceRef: { provider: 'suiteDevOps', value: '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f' },
          displayName: 'uploader',
          defaultBranch: 'main',
          webUrl: 'https://dev.azure.com/acme/Web%20Platform/_git/uploader',
        },
      ]);
      const branches = await discover(clientId, 'branches', {
        ...q,
        projectId: 'Web Platform',
        canonicalSourceProvider: 'suiteDevOps',
        canonicalSourceValue: '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f',
      });
      expect(branches.body.items).toEqual([
        { branchName: 'main' },
        { branchName: 'feature/retries' },
        { branchName: 'deps' },
      ]);
      const wikis = await discover(clientId, 'sources', { ...q, projectId: 'Web Platform', sourceKind: 'adoWiki' });
      expect(wikis.status).toBe(200);
      // Each wiki by its backing repository, with the branch it is published from.
      expect(wikis.body).toEqual({
        items: [
          {
            canonicalSourceRef: { provider: 'suiteDevOps', value: '9e5f3a2b-4c6d-4e7f-8a9b-3c4d5e6f7a8b' },
            displayName: 'Web-Platform.wiki',
            defaultBranch: 'wikiMaster',
          },
          {
            canonicalSourceRef: { provider: 'suiteDevOps', value: '0f6a4b3c-5d7e-4f8a-9b0c-4d5e6f7a8b9c' },
            displayName: 'Handbook',
            defaultBranch: 'main',
          },
        ],
        truncated: false,
        warnings: [],
      });
    });

    it('lists the Bitbucket workspace with its projects, and its repositories', async () => {
      const { clientId, scopeId } = await scoped(fakes.bodies.bitbucket(), fakes.scopePaths.bitbucket);
      const q = { organizationScopeId: scopeId };
      expect((await discover(clientId, 'projects', q)).body.items).toEqual([
        { projectId: 'acme', providerProjectKey: 'acme', displayName: 'Acme' },
        { projectId: 'UPL', providerProjectKey: 'UPL', displayName: 'Uploads' },
        { projectId: 'BIL', providerProjectKey: 'BIL', displayName: 'Billing' },
      ]);
      const sources = await discover(clientId, 'sources', { ...q, projectId: 'acme' });
      expect(sources.body.items.map((s: { canonicalSourceRef: unknown }) => s.canonicalSourceRef)).toEqual([
        { provider: 'gitHostC', value: '{5b7f0a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b}' },
        { provider: 'gitHostC', value: '{c0ffee00-1c2d-4e5f-8a9b-0c1d2e3f4a5b}' },
      ]);
      const branches = await discover(clientId, 'branches', {
        ...q,
        projectId: 'acme',
        canonicalSourceProvider: 'gitHostC',
        canonicalSourceValue: '{5b7f0a3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b}',
      });
      expect(branches.status).toBe(200);
      expect(branches.body.items.map((b: { branchName: string }) => b.branchName)).toContain('main');
    });

    it('refuses purpose=crawl with 409 license_required in Community and serves it in Commercial', async () => {
      const { clientId, scopeId } = await scoped(fakes.bodies.gitlab(), fakes.scopePaths.gitlab);
      const q = { organizationScopeId: scopeId, purpose: 'crawl' };
      for (const res of [
        await discover(clientId, 'projects', q),
        await discover(clientId, 'crawl-filters', { ...q, projectId: 'acme' }),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          error: 'Scheduled crawling of pull requests needs a Commercial license (crawl-configs).',
          code: 'license_required',
          capability: 'crawl-configs',
          requestId: expect.any(String),
        });
      }
      // Other purposes need no license.
      expect((await discover(clientId, 'projects', { ...q, purpose: 'webhook' })).status).toBe(200);
      expectValidation(await discover(clientId, 'projects', { ...q, purpose: 'teleport' }), [
        { path: 'purpose', message: 'must be one of crawl, webhook, knowledge' },
      ]);
      await setEdition('Commercial');
      expect((await discover(clientId, 'projects', q)).status).toBe(200);
      const filters = await discover(clientId, 'crawl-filters', { ...q, projectId: 'acme' });
      expect(filters.status).toBe(200);
      expect(filters.body.items).toHaveLength(2);
    });

    it('refuses unknown scopes (404), disabled scopes and inactive connections (400, saying which), and bad queries (400)', async () => {
      const { clientId, connectionId, scopeId } = await scoped(fakes.bodies.gitlab(), fakes.scopePaths.gitlab);
      const other = await scoped(fakes.bodies.gitlab(), fakes.scopePaths.gitlab);
      const q = { organizationScopeId: scopeId, projectId: 'acme' };
      for (const scope of ['00000000-0000-4000-8000-00000000beef', other.scopeId]) {
        const res = await discover(clientId, 'projects', { organizationScopeId: scope });
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found', error: 'Provider scope not found.' });
      }
      expectValidation(await discover(clientId, 'projects', {}), [
        { path: 'organizationScopeId', message: 'is required' },
      ]);
      expectValidation(await discover(clientId, 'sources', { organizationScopeId: scopeId }), [
        { path: 'projectId', message: 'is required' },
      ]);
      expectValidation(await discover(clientId, 'sources', { ...q, sourceKind: 'wiki' }), [
        { path: 'sourceKind', message: 'must be one of repository, adoWiki' },
      ]);
      const wiki = await discover(clientId, 'sources', { ...q, sourceKind: 'adoWiki' });
      expectValidation(wiki, [{ path: 'sourceKind', message: 'must be repository for gitHostB' }]);
      expect(wiki.body.error).toContain("'adoWiki' is only for suiteDevOps");
      expectValidation(
        await discover(clientId, 'branches', { ...q, canonicalSourceProvider: 'gitHostA', canonicalSourceValue: '1' }),
        [{ path: 'canonicalSourceProvider', message: 'must be gitHostB' }],
      );
      expectValidation(await discover(clientId, 'branches', { ...q, canonicalSourceProvider: 'gitHostB' }), [
        { path: 'canonicalSourceValue', message: 'is required' },
      ]);

      const scopePath = `${connections(clientId)}/${connectionId}/scopes/${scopeId}`;
      await admin.patch(scopePath, { isEnabled: false });
      const disabled = await discover(clientId, 'projects', { organizationScopeId: scopeId });
      expectValidation(disabled, [{ path: 'organizationScopeId', message: 'names a disabled scope' }]);
      expect(disabled.body.error).toBe('The provider scope is disabled; enable it to use it.');
      await admin.patch(scopePath, { isEnabled: true });
      await admin.patch(`${connections(clientId)}/${connectionId}`, { isActive: false });
      const inactive = await discover(clientId, 'projects', { organizationScopeId: scopeId });
      expectValidation(inactive, [
        { path: 'organizationScopeId', message: 'belongs to an inactive provider connection' },
      ]);
      expect(inactive.body.error).toBe('The scope’s provider connection is inactive; activate it to use it.');
    });

    it('answers provider failures with their error: 502 provider_unavailable, 404 not_found', async () => {
      const bad = await scoped(fakes.bodies.gitlab({ secret: WRONG.gitlab }), fakes.scopePaths.gitlab);
      const refused = await discover(bad.clientId, 'projects', { organizationScopeId: bad.scopeId });
      expect(refused.status).toBe(502);
      expect(refused.body).toMatchObject({ code: 'provider_unavailable', providerFailure: 'credentials' });
      const missing = await scoped(fakes.bodies.gitlab(), `${fakes.gitlab.hostBaseUrl}/no-such-group`);
      const notFound = await discover(missing.clientId, 'projects', { organizationScopeId: missing.scopeId });
      expect(notFound.status).toBe(404);
      expect(notFound.body.code).toBe('not_found');
    });
  });

  // Last, so it sees every answer and log line the tests above produced.
  it('never puts a secret into a response or a log line', async () => {
    const secrets = [
      ...Object.values(SECRETS),
      ...Object.values(WRONG),
      BITBUCKET_BAD_ACCESS_TOKEN,
      // The private key's body, not its well-known armour lines.
      ...fakes.githubAppKey.split('\n').filter((line) => line.length > 40),
    ];
    expect(seen.length).toBeGreaterThan(100);
    const answers = seen.map((res) => `${JSON.stringify(res.body)} ${JSON.stringify([...res.headers])}`).join('\n');
    const logs = host.rawLogs();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(answers.includes(secret), `a response carries ${secret.slice(0, 12)}…`).toBe(false);
      expect(logs.includes(secret), `the log carries ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});
