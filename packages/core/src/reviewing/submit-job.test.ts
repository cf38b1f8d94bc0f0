import { beforeEach, describe, expect, it } from 'vitest';
import type { MarginEvents } from '../kernel/index.js';
import { RESOLVED_HEAD_EVENT } from '../review-engine/index.js';
import {
  issuesOf,
  LEASE_MS,
  PLATFORM_ADMIN,
  REVIEWED,
  refusalOf,
  reviewSubmission,
  startUseCases,
  type UseCaseHarness,
  WORKER,
} from '../use-case-harness.js';
import { ONE_AT_A_TIME } from './submit-job.js';

let h: UseCaseHarness;
let clientId: string;
const submit = (body: unknown, client = clientId) => h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, client, body);
const statusOf = async (jobId: string) => (await h.core.reviewing.getReviewJobStatus(PLATFORM_ADMIN, jobId)).status;

describe('submitting a review job', () => {
  beforeEach(async () => {
    h = await startUseCases({ edition: 'Commercial' });
    clientId = await h.newClient();
  });

  it('validates the submission first, naming every field at fault, and queues nothing', async () => {
    const refused = await refusalOf(
      submit({
        provider: 'gitHostA',
        hostBaseUrl: 'not a url',
        repository: {},
        codeReview: { platform: 'pullRequest', externalReviewId: '1', number: 0 },
      }),
    );
    expect(refused.code).toBe('validation_failed');
    expect(issuesOf(refused).map((i) => i.path)).toEqual(
      expect.arrayContaining([
        'hostBaseUrl',
        'repository.externalRepositoryId',
        'repository.ownerOrNamespace',
        'repository.projectPath',
        'codeReview.number',
      ]),
    );
    const noHead = await refusalOf(submit({ ...reviewSubmission(1), reviewRevision: { baseSha: 'b'.repeat(40) } }));
    expect(issuesOf(noHead)).toEqual([{ path: 'reviewRevision.headSha', message: expect.any(String) }]);
    const notHex = await refusalOf(
      submit({ ...reviewSubmission(1), reviewRevision: { headSha: 'main', baseSha: 'b'.repeat(40) } }),
    );
    expect(issuesOf(notHex)).toEqual([{ path: 'reviewRevision.headSha', message: 'must be a commit SHA (hex)' }]);
    expect((await h.core.reviewing.listReviewJobs(PLATFORM_ADMIN, clientId, {})).items).toEqual([]);
  });

  it('refuses a provider family this installation does not register (400 naming the registered ones)', async () => {
    const refused = await refusalOf(submit({ ...reviewSubmission(1), provider: 'forgejo' }));
    expect(refused.code).toBe('validation_failed');
    expect(issuesOf(refused)).toEqual([
      { path: 'provider', message: 'must be one of suiteDevOps, gitHostA, gitHostB, gitHostC' },
    ]);
  });

  it('queues the job (202 body) and announces it', async () => {
    const queued: Array<MarginEvents['job.queued']> = [];
    h.core.events.on('job.queued', (e) => queued.push(e));
    const accepted = await submit(reviewSubmission(1));
    expect(accepted).toEqual({
      jobId: expect.any(String),
      status: 'queued',
      attempt: 1,
      submittedAt: h.clock.now().toISOString(),
    });
    expect(queued).toEqual([{ jobId: accepted.jobId, clientId, trigger: 'api' }]);
    expect(await h.core.reviewing.getReviewJobStatus(PLATFORM_ADMIN, accepted.jobId)).toMatchObject({
      jobId: accepted.jobId,
      clientId,
      status: 'queued',
      trigger: 'api',
      provider: 'gitHostA',
      hostBaseUrl: 'https://github.com',
      repository: { externalRepositoryId: '4242', ownerOrNamespace: 'acme', projectPath: 'acme/uploader' },
      codeReview: { platform: 'pullRequest', externalReviewId: '1', number: 1 },
      reviewRevision: { headSha: 'a'.repeat(40), baseSha: 'b'.repeat(40) },
      attempt: 1,
      startedAt: null,
      completedAt: null,
      progress: { filesTotal: 0, filesDone: 0 },
      result: null,
      usage: null,
      error: null,
    });
  });

  it('refuses a second active job for the same revision (409 naming it); once it ran, the revision may be reviewed again', async () => {
    const first = await submit(reviewSubmission(1));
    const again = await refusalOf(submit(reviewSubmission(1)));
    expect(again.code).toBe('conflict');
    expect(again.details).toEqual({ jobId: first.jobId });
    // A head written in capitals is the same revision.
    expect((await refusalOf(submit(reviewSubmission(1, { head: 'A' })))).details).toEqual({ jobId: first.jobId });

    expect(await h.runQueued()).toEqual([{ status: 'completed' }]);
    const rereview = await submit(reviewSubmission(1));
    expect(rereview.jobId).not.toBe(first.jobId);
  });

  it('matches a duplicate on the whole revision: another providerRevisionId of the same commits is another revision', async () => {
    const first = await submit(reviewSubmission(1, { providerRevisionId: 'iteration-1' }));
    const again = await refusalOf(submit(reviewSubmission(1, { providerRevisionId: 'iteration-1' })));
    expect(again.details).toEqual({ jobId: first.jobId });
    const second = await submit(reviewSubmission(1, { providerRevisionId: 'iteration-2' }));
    expect(second.status).toBe('queued');
    expect(await statusOf(first.jobId)).toBe('superseded');
  });

  it('keeps clients apart: the same revision for another client neither blocks nor is blocked', async () => {
    const other = await h.newClient();
    const mine = await submit(reviewSubmission(1));
    const theirs = await submit(reviewSubmission(1), other);
    expect(theirs.jobId).not.toBe(mine.jobId);
    expect([await statusOf(mine.jobId), await statusOf(theirs.jobId)]).toEqual(['queued', 'queued']);
  });

  it('collapses submissions without a revision onto one: a second waits for the first (409 naming it)', async () => {
    const first = await submit(reviewSubmission(1, { revision: false }));
    const second = await refusalOf(submit(reviewSubmission(1, { revision: false })));
    expect(second.code).toBe('conflict');
    expect(second.details).toEqual({ jobId: first.jobId });
  });

  it('never queues a review without a revision beside an active review of the pull request', async () => {
    const named = await submit(reviewSubmission(1, { head: 'e' }));
    const whole = await refusalOf(submit(reviewSubmission(1, { revision: false })));
    expect(whole.details).toEqual({ jobId: named.jobId });
    expect(await statusOf(named.jobId)).toBe('queued');
  });

  it('retires an older active revision as superseded when a newer one is submitted, queued or running', async () => {
    const older = await submit(reviewSubmission(1, { head: 'c' }));
    expect(await statusOf(older.jobId)).toBe('queued'); // read once, so a stale status would show
    h.clock.advance(1000);
    const newer = await submit(reviewSubmission(1, { head: 'd' }));
    expect(await h.core.reviewing.getReviewJobStatus(PLATFORM_ADMIN, older.jobId)).toMatchObject({
      status: 'superseded',
      completedAt: h.clock.now().toISOString(),
    });

    const [running] = await h.core.worker.claimJobs({ owner: WORKER, capacity: 1, leaseMs: LEASE_MS });
    expect(running?.id).toBe(newer.jobId);
    const newest = await submit(reviewSubmission(1, { head: 'e' }));
    expect(await statusOf(newer.jobId)).toBe('superseded');
    expect(await statusOf(newest.jobId)).toBe('queued');
    // The retired run can no longer renew its lease, so the worker stops it.
    expect(await h.core.worker.renewLease({ jobId: newer.jobId, owner: WORKER, leaseMs: LEASE_MS })).toBe(false);
  });

  it('retires a queued review without a revision when a named revision is submitted', async () => {
    const whole = await submit(reviewSubmission(1, { revision: false }));
    const named = await submit(reviewSubmission(1, { head: 'f' }));
    expect(await statusOf(whole.jobId)).toBe('superseded');
    expect(await statusOf(named.jobId)).toBe('queued');
  });

  it('leaves a running review without a revision alone when a submission names the head it already read', async () => {
    const whole = await submit(reviewSubmission(1, { revision: false }));
    let headRead: () => void = () => undefined;
    const readHead = new Promise<void>((resolve) => {
      headRead = resolve;
    });
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    h.engine.script = async (_job, ctx) => {
      const pass = await ctx.protocol.pass(RESOLVED_HEAD_EVENT.stage, 'Read the pull request');
      pass.event({
        kind: 'scm',
        name: RESOLVED_HEAD_EVENT.name,
        eventCategory: RESOLVED_HEAD_EVENT.eventCategory,
        body: { headSha: 'e'.repeat(40) },
      });
      await pass.complete('succeeded');
      headRead();
      await finished;
      return REVIEWED;
    };
    const run = h.runQueued();
    await readHead;

    const same = await refusalOf(submit(reviewSubmission(1, { head: 'E' })));
    expect(same.code).toBe('conflict');
    expect(same.details).toEqual({ jobId: whole.jobId });
    expect(await statusOf(whole.jobId)).toBe('running');
    // A newer head still retires it, and the run's end is then recorded nowhere.
    const newer = await submit(reviewSubmission(1, { head: 'f' }));
    expect(await statusOf(whole.jobId)).toBe('superseded');
    finish();
    expect(await run).toEqual([{ status: 'abandoned' }]);
    expect(await statusOf(whole.jobId)).toBe('superseded');
    expect(await statusOf(newer.jobId)).toBe('queued');
  });
});

describe('one review at a time without parallel-review-execution (Community)', () => {
  beforeEach(async () => {
    h = await startUseCases();
    clientId = await h.newClient();
  });

  it('refuses a submission while another review is queued or running, installation-wide, with the license message', async () => {
    const first = await submit(reviewSubmission(1));
    const otherClient = await h.newClient();
    for (const refused of [
      await refusalOf(submit(reviewSubmission(2))),
      await refusalOf(submit(reviewSubmission(3), otherClient)),
    ]) {
      expect(refused.code).toBe('license_required');
      expect(refused.message).toBe(ONE_AT_A_TIME);
      expect(refused.details).toEqual({ capability: 'parallel-review-execution' });
    }
    await h.core.worker.claimJobs({ owner: WORKER, capacity: 4, leaseMs: LEASE_MS });
    expect(await statusOf(first.jobId)).toBe('running');
    expect((await refusalOf(submit(reviewSubmission(2)))).code).toBe('license_required');
  });

  it('takes the next submission once the review ran', async () => {
    await submit(reviewSubmission(1));
    await h.runQueued();
    expect((await submit(reviewSubmission(2))).status).toBe('queued');
  });

  it('changes nothing when it refuses: the older revision it would have superseded stays queued', async () => {
    await h.setEdition('Commercial');
    const older = await submit(reviewSubmission(1, { head: 'c' }));
    await submit(reviewSubmission(2));
    await h.setEdition('Community');
    const newer = await refusalOf(submit(reviewSubmission(1, { head: 'd' })));
    expect(newer.code).toBe('license_required');
    expect(await statusOf(older.jobId)).toBe('queued');
  });

  it('applies to Commercial too when the capability is switched off by an override', async () => {
    await h.setEdition('Commercial', [{ capability: 'parallel-review-execution', overrideState: 'disabled' }]);
    await submit(reviewSubmission(1));
    expect((await refusalOf(submit(reviewSubmission(2)))).code).toBe('license_required');
  });
});
