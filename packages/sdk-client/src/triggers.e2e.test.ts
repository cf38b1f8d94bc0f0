import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarginClient } from './client.js';
import { LicenseRequiredError, NotFoundError, ValidationError } from './errors.js';

describe('the SDK’s triggers group and by-coordinates submissions against a real host', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ env: { WORKER_ENABLED: 'false', WEBHOOK_PROCESSOR_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await host.close();
  });

  it('manages webhook and crawl configurations and knowledge sources, and returns by-coordinates outcomes as data', async () => {
    const client = createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    const { id: clientId } = await client.tenancy.createClient({
      displayName: 'SDK triggers',
      tenantId: SYSTEM_TENANT_ID,
    });
    // Nothing listens at this host: the provider cannot be asked.
    const connection = await client.scm.createProviderConnection(clientId, {
      providerFamily: 'gitHostA',
      authenticationKind: 'personalAccessToken',
      hostBaseUrl: 'http://127.0.0.1:1',
      secret: 'ghp_sdkTriggersTest',
    });
    const scope = await client.scm.createProviderScope(clientId, connection.id, {
      scopeType: 'organization',
      scopePath: 'http://127.0.0.1:1/acme',
    });

    const source = await client.knowledge.createKnowledgeSource(clientId, {
      displayName: 'Uploader',
      sourceKind: 'repository',
      organizationScopeId: scope.id,
      providerProjectKey: 'acme',
      canonicalSourceRef: { provider: 'gitHostA', value: '987654321' },
      defaultBranch: 'main',
    });
    expect((await client.knowledge.listKnowledgeSources(clientId)).items).toEqual([source]);
    expect(await client.knowledge.getKnowledgeSource(clientId, source.id)).toEqual(source);

    const webhook = await client.triggers.createWebhookConfiguration({
      clientId,
      provider: 'gitHostA',
      organizationScopeId: scope.id,
      providerProjectKey: 'acme',
      knowledgeSourceScopeMode: 'selectedSources',
      knowledgeSourceIds: [source.id],
    });
    expect(webhook.generatedSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(webhook.listenerUrl).toMatch(/\/webhooks\/v1\/providers\/gitHostA\/[0-9a-f]{32}$/);
    const read = await client.triggers.getWebhookConfiguration(webhook.id);
    expect(JSON.stringify(read)).not.toContain(webhook.generatedSecret);
    expect((await client.triggers.listWebhookConfigurations({ clientId })).items.map((c) => c.id)).toEqual([
      webhook.id,
    ]);
    expect((await client.triggers.patchWebhookConfiguration(webhook.id, { repoFilters: [] })).repoFilters).toEqual([]);
    expect(await client.triggers.listWebhookDeliveries(webhook.id, { take: '5' })).toEqual({ items: [] });

    const coordinates = {
      providerScopePath: 'http://127.0.0.1:1/acme',
      providerProjectKey: 'acme',
      repositoryId: '987654321',
      pullRequestId: 42,
    };
    expect(await client.reviewing.submitReviewByCoordinates(clientId, coordinates)).toMatchObject({
      outcome: 'revisionUnresolvable',
    });
    expect(
      await client.reviewing.submitReviewByCoordinates(clientId, { ...coordinates, providerProjectKey: 'other' }),
    ).toMatchObject({ outcome: 'notAuthorized' });
    await expect(
      client.reviewing.submitReviewByCoordinates(clientId, { ...coordinates, pullRequestId: 0 }),
    ).rejects.toBeInstanceOf(ValidationError);

    await expect(
      client.triggers.createCrawlConfiguration({ clientId, organizationScopeId: scope.id, providerProjectKey: 'acme' }),
    ).rejects.toBeInstanceOf(LicenseRequiredError);
    await client.licensing.patchLicensing({ edition: 'Commercial' });
    const crawl = await client.triggers.createCrawlConfiguration({
      clientId,
      organizationScopeId: scope.id,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 3600,
      isActive: false,
    });
    expect(
      (await client.triggers.patchCrawlConfiguration(crawl.id, { crawlIntervalSeconds: 600 })).crawlIntervalSeconds,
    ).toBe(600);
    expect((await client.triggers.listCrawlConfigurations({ clientId })).items.map((c) => c.id)).toEqual([crawl.id]);
    expect((await client.triggers.getCrawlConfiguration(crawl.id)).isActive).toBe(false);
    await client.triggers.deleteCrawlConfiguration(crawl.id);
    await client.triggers.deleteWebhookConfiguration(webhook.id);
    await expect(client.triggers.getWebhookConfiguration(webhook.id)).rejects.toBeInstanceOf(NotFoundError);
  }, 30_000);
});
