import { beforeEach, describe, expect, it } from 'vitest';
import type { Actor } from '../kernel/index.js';
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

let h: UseCaseHarness;
let clientId: string;
let admin: Actor;
const coordinates = (pullRequestId = 1, repositoryId = '4242') => ({
  providerScopePath: 'https://github.com/acme',
  providerProjectKey: 'acme',
  repositoryId,
  pullRequestId,
});
const block = (input: Record<string, unknown>) => h.core.reviewing.blockPullRequest(admin, clientId, input);
const unblock = (input: Record<string, unknown>) => h.core.reviewing.unblockPullRequest(admin, clientId, input);
const submit = (body: unknown) => h.core.reviewing.submitReviewJob(admin, clientId, body);

beforeEach(async () => {
  h = await startUseCases({ edition: 'Commercial' });
  clientId = await h.newClient();
  admin = await h.clientMember(clientId, 'ClientAdministrator');
});

describe('blocking pull requests', () => {
  it('blocks idempotently: blocking again answers the existing block', async () => {
    const blocked = await block({ ...coordinates(), reason: 'Release freeze' });
    expect(blocked).toEqual({
      id: expect.any(String),
      ...coordinates(),
      reason: 'Release freeze',
      blockedByUserId: admin.userId,
      blockedAt: h.clock.now().toISOString(),
    });
    h.clock.advance(1000);
    expect(await block({ ...coordinates(), reason: 'Another reason' })).toEqual(blocked);
    expect(await h.core.reviewing.listBlockedPullRequests(admin, clientId, {})).toEqual({
      items: [blocked],
      nextCursor: null,
    });
  });

  it('refuses new jobs for a blocked pull request (409 with the reason); a running one goes on', async () => {
    const running = (await submit(reviewSubmission(1))).jobId;
    await h.core.worker.claimJobs({ owner: WORKER, capacity: 1, leaseMs: LEASE_MS });
    await block({ ...coordinates(), reason: 'Release freeze' });

    const refused = await refusalOf(submit(reviewSubmission(1, { head: 'e' })));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toBe('This pull request is blocked: Release freeze');
    expect(refused.details).toEqual({ reason: 'blocked' });
    expect((await h.core.reviewing.getReviewJobStatus(admin, running)).status).toBe('running');
    expect(await h.core.worker.renewLease({ jobId: running, owner: WORKER, leaseMs: LEASE_MS })).toBe(true);
  });

  it('matches by repository id and pull request number, whatever scope path and project the block names', async () => {
    await block({
      ...coordinates(),
      providerScopePath: 'https://elsewhere.example/x',
      providerProjectKey: 'x',
      reason: 'Frozen',
    });
    expect((await refusalOf(submit(reviewSubmission(1)))).details).toEqual({ reason: 'blocked' });
    // Another pull request of the repository, the same number elsewhere, and another client are not blocked.
    expect((await submit(reviewSubmission(2))).status).toBe('queued');
    expect((await submit(reviewSubmission(1, { repositoryId: '77' }))).status).toBe('queued');
    const other = await h.newClient();
    expect((await h.core.reviewing.submitReviewJob(PLATFORM_ADMIN, other, reviewSubmission(1))).status).toBe('queued');
  });

  // Core takes repository ids that differ only in case for the same pull request everywhere (job keys,
  // duplicates, supersession; trigger repository filters), so a block holds whichever spelling is used.
  it('matches the repository id whatever its case, as duplicates and supersession do', async () => {
    await block({ ...coordinates(1, '5F1C8D2E-6A3B-4C7D-9E8F-0A1B2C3D4E5F'), reason: 'Frozen' });
    const refused = await refusalOf(
      submit(reviewSubmission(1, { repositoryId: '5f1c8d2e-6a3b-4c7d-9e8f-0a1b2c3d4e5f' })),
    );
    expect(refused.details).toEqual({ reason: 'blocked' });
  });

  it('unblocks, saying whether there was a block, and lets reviews through again', async () => {
    await block({ ...coordinates(), reason: 'Release freeze' });
    expect(await unblock(coordinates())).toEqual({ ...coordinates(), unblocked: true });
    expect(await unblock(coordinates())).toEqual({ ...coordinates(), unblocked: false });
    expect((await submit(reviewSubmission(1))).status).toBe('queued');
  });

  it('lists the client’s blocks newest first, a page at a time', async () => {
    for (const number of [1, 2, 3, 4]) {
      await block({ ...coordinates(number), reason: `Block ${number}` });
      h.clock.advance(1000);
    }
    const other = await h.newClient();
    const otherAdmin = await h.clientMember(other, 'ClientAdministrator');
    await h.core.reviewing.blockPullRequest(otherAdmin, other, { ...coordinates(9), reason: 'Not yours' });

    const first = await h.core.reviewing.listBlockedPullRequests(admin, clientId, { limit: '3' });
    expect(first.items.map((b) => b.pullRequestId)).toEqual([4, 3, 2]);
    const rest = await h.core.reviewing.listBlockedPullRequests(admin, clientId, {
      limit: '3',
      cursor: first.nextCursor,
    });
    expect(rest).toEqual({ items: [expect.objectContaining({ pullRequestId: 1 })], nextCursor: null });
  });

  it('validates blocks and unblocks (400 naming the field)', async () => {
    expect(issuesOf(await refusalOf(block(coordinates()))).map((i) => i.path)).toEqual(['reason']);
    expect(issuesOf(await refusalOf(block({ ...coordinates(0), reason: 'x' }))).map((i) => i.path)).toEqual([
      'pullRequestId',
    ]);
    expect(issuesOf(await refusalOf(unblock({ ...coordinates(), repositoryId: ' ' }))).map((i) => i.path)).toEqual([
      'repositoryId',
    ]);
  });
});

describe('dismissing findings', () => {
  const dismiss = (input: Record<string, unknown>) => h.core.reviewing.dismissFinding(admin, clientId, input);
  const listed = async (query: Record<string, unknown> = {}) =>
    (await h.core.reviewing.listDismissals(admin, clientId, query)).items.map((d) => d.findingMessage);

  it('remembers a dismissed finding (201 body) with its optional fields', async () => {
    expect(await dismiss({ findingMessage: 'Prefer early returns.', filePath: 'src/a.ts', label: 'style' })).toEqual({
      id: expect.any(String),
      clientId,
      findingMessage: 'Prefer early returns.',
      filePath: 'src/a.ts',
      label: 'style',
      createdAt: h.clock.now().toISOString(),
      createdByUserId: admin.userId,
    });
    expect(await dismiss({ findingMessage: 'Name the constant.' })).toMatchObject({ filePath: null, label: null });
  });

  it('needs the finding’s message (400)', async () => {
    for (const input of [{ filePath: 'x' }, { findingMessage: '   ' }, { findingMessage: 42 }]) {
      expect(issuesOf(await refusalOf(dismiss(input))).map((i) => i.path)).toEqual(['findingMessage']);
    }
    expect(await listed()).toEqual([]);
  });

  it('lists the client’s dismissals newest first, a page at a time', async () => {
    for (const message of ['first', 'second', 'third']) {
      await dismiss({ findingMessage: message });
      h.clock.advance(1000);
    }
    const other = await h.newClient();
    await h.core.reviewing.dismissFinding(await h.clientMember(other, 'ClientAdministrator'), other, {
      findingMessage: 'theirs',
    });
    expect(await listed()).toEqual(['third', 'second', 'first']);
    const page = await h.core.reviewing.listDismissals(admin, clientId, { limit: '2' });
    expect(page.items.map((d) => d.findingMessage)).toEqual(['third', 'second']);
    expect(await listed({ limit: '2', cursor: page.nextCursor })).toEqual(['first']);
  });

  it('forgets a dismissal once (then 404), and never another client’s', async () => {
    const mine = await dismiss({ findingMessage: 'Prefer early returns.' });
    const other = await h.newClient();
    const theirs = await h.core.reviewing.dismissFinding(await h.clientMember(other, 'ClientAdministrator'), other, {
      findingMessage: 'Keep it.',
    });
    const notMine = await refusalOf(h.core.reviewing.deleteDismissal(admin, clientId, theirs.id));
    expect([notMine.code, notMine.message]).toEqual(['not_found', 'Dismissal not found.']);

    await h.core.reviewing.deleteDismissal(admin, clientId, mine.id);
    expect((await refusalOf(h.core.reviewing.deleteDismissal(admin, clientId, mine.id))).code).toBe('not_found');
    expect(await listed()).toEqual([]);
  });

  it('hands the dismissals to the next review, and a forgotten one no longer', async () => {
    const seen: string[][] = [];
    h.engine.script = async (_job, ctx) => {
      seen.push((await ctx.memory.dismissals()).map((d) => d.findingMessage));
      return REVIEWED;
    };
    const dismissal = await dismiss({ findingMessage: 'Prefer early returns.', filePath: 'src/a.ts' });
    await submit(reviewSubmission(1));
    await h.runQueued();
    await h.core.reviewing.deleteDismissal(admin, clientId, dismissal.id);
    await submit(reviewSubmission(2));
    await h.runQueued();
    expect(seen).toEqual([['Prefer early returns.'], []]);
  });
});
