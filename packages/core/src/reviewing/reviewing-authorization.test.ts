import { beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import {
  CLIENT_ADMINS,
  CLIENT_USERS,
  outcomesByPersona,
  type Persona,
  type Personas,
  PLATFORM_ADMIN,
  pullRequestScenario,
  REVIEWED,
  reviewSubmission,
  SCM_SCOPE_PATH,
  setUpPersonas,
  startUseCases,
  type UseCaseHarness,
} from '../use-case-harness.js';

/**
 * Who may use each reviewing use case: ClientUser reads, submits by coordinates and restarts;
 * ClientAdministrator submits, stops, blocks and dismisses; a tenant administrator administers every
 * client of its tenant; another client's administrator does not learn the client or its jobs exist.
 */
describe('authorization: reviewing', () => {
  let h: UseCaseHarness;
  let p: Personas;
  let number = 100;
  const clientA = () => p.clientA;
  const newJob = async () =>
    (await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, clientA(), reviewSubmission(++number))).jobId;
  const failedJob = async () => {
    const jobId = await newJob();
    h.engine.script = async () => ({ ...REVIEWED, status: 'failed', reason: 'boom' });
    await h.runQueued();
    return jobId;
  };
  const block = {
    providerScopePath: SCM_SCOPE_PATH,
    providerProjectKey: 'acme',
    repositoryId: '4242',
    pullRequestId: 9,
  };
  let anyJob = '';

  beforeAll(async () => {
    h = await startUseCases({ edition: 'Commercial' });
    const { clientId, scopeId } = await h.scopedClient();
    await h.core.triggers.createWebhookConfiguration(
      PLATFORM_ADMIN,
      { clientId, provider: 'gitHostA', organizationScopeId: scopeId, providerProjectKey: 'acme' },
      { baseUrl: 'https://margin.example.com', source: 'publicBaseUrl' },
    );
    p = await setUpPersonas(h, clientId);
    anyJob = await newJob();
  });

  const rows: Array<[string, (actor: Actor) => Promise<unknown>, Record<Persona, string>]> = [
    ['submit a job', (a) => h.core.reviewing.submitReviewJob(a, clientA(), reviewSubmission(++number)), CLIENT_ADMINS],
    [
      'submit by coordinates',
      async (a) => {
        h.scm.loadPullRequest(pullRequestScenario(++number));
        const answer = await h.core.reviewing.submitReviewByCoordinates(a, clientA(), {
          providerScopePath: SCM_SCOPE_PATH,
          providerProjectKey: 'acme',
          repositoryId: '4242',
          pullRequestId: number,
        });
        if (answer.outcome !== 'submitted') throw new MarginError(answer.code, answer.error);
      },
      CLIENT_USERS,
    ],
    ['list jobs', (a) => h.core.reviewing.listReviewJobs(a, clientA(), {}), CLIENT_USERS],
    ['read a job’s status', (a) => h.core.reviewing.getReviewJobStatus(a, anyJob), CLIENT_USERS],
    ['read a job’s protocol', (a) => h.core.reviewing.getReviewJobProtocol(a, anyJob, {}), CLIENT_USERS],
    ['restart a failed job', async (a) => h.core.reviewing.restartReviewJob(a, await failedJob()), CLIENT_USERS],
    ['stop a queued job', async (a) => h.core.reviewing.stopReviewJob(a, await newJob()), CLIENT_ADMINS],
    ['list blocked pull requests', (a) => h.core.reviewing.listBlockedPullRequests(a, clientA(), {}), CLIENT_USERS],
    [
      'block a pull request',
      (a) => h.core.reviewing.blockPullRequest(a, clientA(), { ...block, reason: 'Freeze' }),
      CLIENT_ADMINS,
    ],
    ['unblock a pull request', (a) => h.core.reviewing.unblockPullRequest(a, clientA(), block), CLIENT_ADMINS],
    ['dismiss a finding', (a) => h.core.reviewing.dismissFinding(a, clientA(), { findingMessage: 'x' }), CLIENT_ADMINS],
    ['list dismissals', (a) => h.core.reviewing.listDismissals(a, clientA(), {}), CLIENT_USERS],
    [
      'forget a dismissal',
      async (a) => {
        const { id } = await h.core.reviewing.dismissFinding(PLATFORM_ADMIN, clientA(), { findingMessage: 'x' });
        await h.core.reviewing.deleteDismissal(a, clientA(), id);
      },
      CLIENT_ADMINS,
    ],
    ['list thread memory', (a) => h.core.reviewing.listThreadMemory(a, clientA(), {}), CLIENT_USERS],
    [
      'forget a thread memory record',
      async (a) => {
        await h.core.reviewing.dismissFinding(PLATFORM_ADMIN, clientA(), { findingMessage: 'y' });
        const [record] = (await h.core.reviewing.listThreadMemory(PLATFORM_ADMIN, clientA(), { limit: 1 })).items;
        await h.core.reviewing.deleteThreadMemory(a, clientA(), record?.id ?? 'none');
      },
      CLIENT_ADMINS,
    ],
    ['list findings', (a) => h.core.reviewing.listReviewFindings(a, clientA(), {}), CLIENT_USERS],
    [
      'read where a pull request stands',
      (a) => h.core.reviewing.getPullRequestFindings(a, clientA(), { repositoryId: '4242', pullRequestId: '7' }),
      CLIENT_USERS,
    ],
  ];

  it.each(rows)('%s', async (_name, call, expected) => {
    expect(await outcomesByPersona(p.actors, call)).toEqual(expected);
  });

  it('does not tell a user without any role that a client or job exists', async () => {
    const stranger = await h.newUser();
    for (const call of [
      () => h.core.reviewing.listReviewJobs(stranger, clientA(), {}),
      () => h.core.reviewing.getReviewJobStatus(stranger, anyJob),
      () => h.core.reviewing.stopReviewJob(stranger, anyJob),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'not_found' });
    }
  });
});
