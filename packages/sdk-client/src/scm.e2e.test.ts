import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarginClient } from './client.js';
import { LicenseRequiredError, NotFoundError, ValidationError } from './errors.js';

describe('the SDK’s scm group against a real host', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });

  it('manages a connection, its scopes and reviewer identity, and maps refusals to error classes', async () => {
    const client = createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    const { id: clientId } = await client.tenancy.createClient({ displayName: 'SDK scm', tenantId: SYSTEM_TENANT_ID });
    const connection = await client.scm.createProviderConnection(clientId, {
      providerFamily: 'gitHostB',
      authenticationKind: 'personalAccessToken',
      // Nothing listens there: verification fails, and is recorded rather than thrown.
      hostBaseUrl: 'http://127.0.0.1:1',
      secret: 'glpat-sdk-test-token',
    });
    expect(connection).toMatchObject({ hasSecret: true, verificationStatus: 'neverVerified' });
    expect(JSON.stringify(connection)).not.toContain('glpat-sdk-test-token');
    expect((await client.scm.listProviderConnections(clientId)).items.map((c) => c.id)).toEqual([connection.id]);
    expect(
      (await client.scm.patchProviderConnection(clientId, connection.id, { displayName: 'Lab' })).displayName,
    ).toBe('Lab');
    expect((await client.scm.verifyProviderConnection(clientId, connection.id)).verificationStatus).toBe('failed');

    const scope = await client.scm.createProviderScope(clientId, connection.id, {
      scopeType: 'organization',
      scopePath: 'http://127.0.0.1:1/acme',
    });
    expect((await client.scm.listProviderScopes(clientId, connection.id)).items).toEqual([scope]);
    expect(
      (await client.scm.patchProviderScope(clientId, connection.id, scope.id, { isEnabled: false })).isEnabled,
    ).toBe(false);

    await expect(client.scm.getReviewerIdentity(clientId, connection.id)).rejects.toBeInstanceOf(NotFoundError);
    await client.scm.putReviewerIdentity(clientId, connection.id, { externalUserId: '99', login: 'margin-bot' });
    expect((await client.scm.getReviewerIdentity(clientId, connection.id)).login).toBe('margin-bot');

    const { scm } = client;
    await expect(scm.discoverProjects(clientId, { organizationScopeId: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      scm.discoverCrawlFilters(clientId, { organizationScopeId: scope.id, projectId: 'acme', purpose: 'crawl' }),
    ).rejects.toBeInstanceOf(LicenseRequiredError);
    // The scope is disabled: 400.
    await expect(
      scm.discoverSources(clientId, { organizationScopeId: scope.id, projectId: 'acme' }),
    ).rejects.toBeInstanceOf(ValidationError);

    await client.scm.deleteProviderScope(clientId, connection.id, scope.id);
    await client.scm.deleteProviderConnection(clientId, connection.id);
    await expect(client.scm.getProviderConnection(clientId, connection.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
