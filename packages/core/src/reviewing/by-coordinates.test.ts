import { beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../kernel/index.js';
import {
  issuesOf,
  PLATFORM_ADMIN,
  pullRequestScenario,
  refusalOf,
  SCM_HOST,
  SCM_SCOPE_PATH,
  SCM_SECRET,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

/**
 * `submitReviewByCoordinates`, row by row through the spec's outcome table, against the fake
 * provider (pull requests 42 and 43 open, 44 closed, 45 merged, 46 without commits).
 */
let h: UseCaseHarness;
let clientId: string;
let connectionId: string;
let scopeId: string;
let configId: string;
let sourceId: string;
let user: Actor;
const BASE = { baseUrl: 'https://margin.example.com', source: 'publicBaseUrl' } as const;
const coordinates = (overrides: Record<string, unknown> = {}) => ({
  providerScopePath: SCM_SCOPE_PATH,
  providerProjectKey: 'acme',
  repositoryId: '4242',
  pullRequestId: 42,
  ...overrides,
});
const submit = (input: unknown, actor = user, client = clientId) =>
  h.core.reviewing.submitReviewByCoordinates(actor, client, input);
const jobOf = async (jobId: string) => h.core.reviewing.getReviewJobStatus(PLATFORM_ADMIN, jobId);

beforeEach(async () => {
  h = await startUseCases({ edition: 'Commercial' });
  ({ clientId, connectionId, scopeId } = await h.scopedClient());
  user = await h.clientMember(clientId, 'ClientUser');
  sourceId = (
    await h.core.knowledge.createKnowledgeSource(PLATFORM_ADMIN, clientId, {
      displayName: 'Uploader',
      sourceKind: 'repository',
      organizationScopeId: scopeId,
      providerProjectKey: 'acme',
      canonicalSourceRef: { provider: 'gitHostA', value: '4242' },
      defaultBranch: 'main',
    })
  ).id;
  configId = (
    await h.core.triggers.createWebhookConfiguration(
      PLATFORM_ADMIN,
      {
        clientId,
        provider: 'gitHostA',
        organizationScopeId: scopeId,
        providerProjectKey: 'acme',
        reviewTemperature: 0.7,
        repoFilters: [{ canonicalSourceRef: { provider: 'gitHostA', value: '4242' }, targetBranchPatterns: ['main'] }],
        knowledgeSourceScopeMode: 'selectedSources',
        knowledgeSourceIds: [sourceId],
      },
      BASE,
    )
  ).id;
  h.scm.loadPullRequest(pullRequestScenario(42));
  h.scm.loadPullRequest(pullRequestScenario(43));
  h.scm.loadPullRequest(pullRequestScenario(44, { status: 'closed' }));
  h.scm.loadPullRequest(pullRequestScenario(45, { status: 'merged' }));
  h.scm.loadPullRequest(pullRequestScenario(46, { headSha: '' }));
});

describe('by-coordinates submissions', () => {
  it('submitted: queues a job of the revision the provider reports, under the configuration, for a ClientUser', async () => {
    const answer = await submit(coordinates());
    expect(answer).toEqual({ outcome: 'submitted', jobId: expect.any(String) });
    if (answer.outcome !== 'submitted') return;
    expect(await jobOf(answer.jobId)).toMatchObject({
      clientId,
      status: 'queued',
      trigger: 'byCoordinates',
      provider: 'gitHostA',
      hostBaseUrl: SCM_HOST,
      repository: { externalRepositoryId: '4242', ownerOrNamespace: 'acme', projectPath: 'uploader' },
      codeReview: { platform: 'pullRequest', externalReviewId: '42', number: 42 },
      reviewRevision: { headSha: 'a'.repeat(40), baseSha: 'b'.repeat(40) },
      configuration: {
        configurationId: configId,
        reviewTemperature: 0.7,
        knowledgeSourceScopeMode: 'selectedSources',
        knowledgeSourceIds: [sourceId],
      },
    });
    expect((await h.storage.reviewJobs.findById(answer.jobId))?.submittedByUserId).toBe(user.userId);
    // The provider was asked with the connection's own host and secret.
    expect(h.scm.connected.at(-1)).toMatchObject({ hostBaseUrl: SCM_HOST, secret: SCM_SECRET });
  });

  it('duplicateActiveJob: the same revision while its review is queued, naming that job', async () => {
    const first = await submit(coordinates());
    expect(await submit(coordinates())).toEqual({
      outcome: 'duplicateActiveJob',
      code: 'conflict',
      error: 'A review of this revision is already queued or running.',
      jobId: (first as { jobId: string }).jobId,
    });
  });

  it('reads the revision at each request: re-reviews a reviewed revision, and a push supersedes the older review', async () => {
    const first = await submit(coordinates());
    await h.runQueued();
    const again = await submit(coordinates());
    expect(again.outcome).toBe('submitted');
    h.scm.loadPullRequest(pullRequestScenario(42, { headSha: 'c'.repeat(40) }));
    const pushed = await submit(coordinates());
    expect(pushed.outcome).toBe('submitted');
    const ids = [first, again, pushed].map((a) => (a as { jobId: string }).jobId);
    expect(await Promise.all(ids.map(async (id) => (await jobOf(id)).status))).toEqual([
      'completed',
      'superseded',
      'queued',
    ]);
  });

  it.each([
    [44, 'closed'],
    [45, 'merged'],
  ])('notSubmittable: pull request %i is %s', async (pullRequestId, reason) => {
    expect(await submit(coordinates({ pullRequestId }))).toEqual({
      outcome: 'notSubmittable',
      code: 'conflict',
      reason,
      error: `The pull request is ${reason}.`,
    });
  });

  it('notSubmittable: a blocked pull request, until it is unblocked', async () => {
    const block = {
      providerScopePath: SCM_SCOPE_PATH,
      providerProjectKey: 'acme',
      repositoryId: '4242',
      pullRequestId: 42,
    };
    await h.core.reviewing.blockPullRequest(PLATFORM_ADMIN, clientId, { ...block, reason: 'frozen' });
    expect(await submit(coordinates())).toMatchObject({
      outcome: 'notSubmittable',
      code: 'conflict',
      reason: 'blocked',
      error: 'This pull request is blocked: frozen',
    });
    await h.core.reviewing.unblockPullRequest(PLATFORM_ADMIN, clientId, block);
    expect((await submit(coordinates())).outcome).toBe('submitted');
  });

  it('notSubmittable: the configured scope no longer resolves (deleted, disabled, or its connection inactive)', async () => {
    const unresolvable = { outcome: 'notSubmittable', code: 'conflict', reason: 'scopeUnresolvable' };
    await h.core.scm.patchProviderScope(PLATFORM_ADMIN, clientId, connectionId, scopeId, { isEnabled: false });
    expect(await submit(coordinates())).toMatchObject(unresolvable);
    await h.core.scm.patchProviderScope(PLATFORM_ADMIN, clientId, connectionId, scopeId, { isEnabled: true });
    await h.core.scm.patchProviderConnection(PLATFORM_ADMIN, clientId, connectionId, { isActive: false });
    expect(await submit(coordinates())).toMatchObject(unresolvable);
    await h.core.scm.patchProviderConnection(PLATFORM_ADMIN, clientId, connectionId, { isActive: true });
    await h.core.scm.deleteProviderScope(PLATFORM_ADMIN, clientId, connectionId, scopeId);
    expect(await submit(coordinates())).toMatchObject(unresolvable);
  });

  it('notSubmittable: another review running without parallel-review-execution, naming the capability', async () => {
    await submit(coordinates());
    await h.setEdition('Community');
    expect(await submit(coordinates({ pullRequestId: 43 }))).toMatchObject({
      outcome: 'notSubmittable',
      code: 'license_required',
      reason: 'oneAtATime',
      capability: 'parallel-review-execution',
    });
  });

  it.each([
    ['another scope path', { providerScopePath: `${SCM_HOST}/other` }],
    ['the scope path in another case', { providerScopePath: SCM_SCOPE_PATH.toUpperCase() }],
    ['another project key', { providerProjectKey: 'ACME' }],
    ['a repository outside the listed ones', { repositoryId: '4343' }],
  ])('notAuthorized: %s', async (_name, overrides) => {
    expect(await submit(coordinates(overrides))).toMatchObject({
      outcome: 'notAuthorized',
      code: 'forbidden',
      error:
        'No crawl or webhook configuration of this client covers these coordinates (scope path, project key and repository).',
    });
  });

  it('notAuthorized: a configuration of another client does not count', async () => {
    const other = await h.newClient();
    expect(await submit(coordinates(), PLATFORM_ADMIN, other)).toMatchObject({ outcome: 'notAuthorized' });
  });

  it('notAuthorized: the provider says the repository belongs outside the configured owner', async () => {
    h.scm.loadPullRequest(pullRequestScenario(42), { repositoryOwner: 'mallory' });
    expect(await submit(coordinates())).toMatchObject({
      outcome: 'notAuthorized',
      code: 'forbidden',
      error: "The repository belongs to 'mallory', outside the configuration's owner or group 'acme'.",
    });
  });

  it('pullRequestNotFound: the provider knows no such pull request', async () => {
    expect(await submit(coordinates({ pullRequestId: 404_404 }))).toEqual({
      outcome: 'pullRequestNotFound',
      code: 'not_found',
      error: 'The provider reports no such pull request.',
    });
  });

  it('revisionUnresolvable: the provider answers without commits, or cannot be asked (no secret in the answer)', async () => {
    expect(await submit(coordinates({ pullRequestId: 46 }))).toEqual({
      outcome: 'revisionUnresolvable',
      code: 'provider_unavailable',
      error: 'The provider answered without commits.',
    });
    h.scm.unreachable = true;
    const unreachable = await submit(coordinates());
    expect(unreachable).toEqual({
      outcome: 'revisionUnresolvable',
      code: 'provider_unavailable',
      error: 'The provider could not be asked: The provider could not be reached.',
    });
    expect(JSON.stringify(unreachable)).not.toContain(SCM_SECRET);
  });

  it('submissionFailed: queueing fails inside the service, with the cause for the host’s log only', async () => {
    const failure = new Error('disk on fire');
    h.storage.transaction = async () => {
      throw failure;
    };
    expect(await submit(coordinates())).toEqual({
      outcome: 'submissionFailed',
      code: 'internal',
      error: 'Queueing the review failed internally.',
      cause: failure,
    });
  });

  it('still serves explicit requests under a deactivated configuration', async () => {
    await h.core.triggers.patchWebhookConfiguration(PLATFORM_ADMIN, configId, { isActive: false }, BASE);
    expect((await submit(coordinates())).outcome).toBe('submitted');
  });

  it('counts a crawl configuration with the coordinates too, and runs under its settings', async () => {
    const scoped = await h.scopedClient();
    const crawl = await h.core.triggers.createCrawlConfiguration(PLATFORM_ADMIN, {
      clientId: scoped.clientId,
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      crawlIntervalSeconds: 3600,
      isActive: false,
      reviewTemperature: 0.1,
    });
    const answer = await submit(coordinates(), PLATFORM_ADMIN, scoped.clientId);
    expect(answer.outcome).toBe('submitted');
    expect((await jobOf((answer as { jobId: string }).jobId)).configuration).toMatchObject({
      configurationId: crawl.id,
      reviewTemperature: 0.1,
    });
  });

  it.each([
    ['providerScopePath', { providerScopePath: undefined }],
    ['providerProjectKey', { providerProjectKey: ' ' }],
    ['repositoryId', { repositoryId: undefined }],
    ['pullRequestId', { pullRequestId: undefined }],
    ['pullRequestId', { pullRequestId: '42' }],
    ['pullRequestId', { pullRequestId: 0 }],
  ])('refuses a request whose %s is missing or invalid (400, no outcome)', async (field, overrides) => {
    const refused = await refusalOf(submit(coordinates(overrides)));
    expect(refused.code).toBe('validation_failed');
    expect(issuesOf(refused).map((i) => i.path)).toEqual([field]);
  });

  it('is not found (no outcome) for a user without a role on the client', async () => {
    const stranger = await h.newUser();
    expect((await refusalOf(submit(coordinates(), stranger))).code).toBe('not_found');
  });
});
