import type { PullRequestScenario, RecordedWrite } from '@margin/core/testing';
import { type FakeChatModel, type FakeChatRequest, GH_REPOSITORY_ID } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TestApi } from '../testing/index.js';
import {
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  startReviewHarness,
  userOf,
} from '../testing/review-test-support.js';
import { type ScmFakes, SECRETS } from '../testing/scm-test-support.js';

let fakes: ScmFakes;
let model: FakeChatModel;
let admin: TestApi;
let harness: ReviewHarness | undefined;

beforeAll(async () => {
  harness = await startReviewHarness();
  ({ fakes, model, admin } = harness);
});

afterAll(async () => {
  await harness?.close();
});

const numbered = (lines: string[]) => `${lines.join('\n')}\n`;
const steps = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `  step(${from + i});`);
const BUG = '  const total = price * qty;';
const FIX = '  const total = price * qty * (1 - discount);';

/** `src/billing.ts` at a push: 60 lines with line 42 given, optionally pushed down by a header. */
function billing(line42: string, header = 0): string {
  return numbered([
    ...Array.from({ length: header }, (_, i) => `  // header ${i + 1}`),
    ...steps(1, 41),
    line42,
    ...steps(43, 60),
  ]);
}

function push(
  number: number,
  head: string,
  files: Record<string, string>,
  relation: 'ahead' | 'diverged' = 'ahead',
): PullRequestScenario {
  return {
    number,
    title: 'Compute invoice totals',
    description: 'Totals from price and quantity.',
    sourceBranch: `feature/${number}`,
    targetBranch: 'main',
    headSha: head.repeat(40),
    baseSha: '0'.repeat(40),
    relationToPreviousHead: relation,
    files: Object.entries(files).map(([path, newText]) => ({
      path,
      changeType: 'modified' as const,
      oldText: path === 'src/billing.ts' ? numbered(steps(1, 60)) : `// ${path} at base\n`,
      newText,
    })),
  };
}

/** The model's defect on the bug line, worded as `wording` says; anything else it finds, as given. */
function script(
  wording: { title: string; message: string },
  more: (request: FakeChatRequest) => Array<Record<string, unknown>> = () => [],
) {
  model.respondWith((request) => {
    if (isVerifying(request)) return confirmAll(request);
    const user = userOf(request);
    const found: Array<Record<string, unknown>> = [];
    // The bug line as the engine shows it: an added line, numbered.
    if (/^\s*\d+ \+\s+const total = price \* qty;$/m.test(user)) {
      found.push({
        path: 'src/billing.ts',
        quote: BUG.trim(),
        startLine: 40,
        endLine: 40,
        category: 'bug',
        severity: 'error',
        ...wording,
      });
    }
    return findingsAnswer(...found, ...more(request));
  });
}

async function review(clientId: string, coordinates: Record<string, unknown>) {
  const submitted = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, coordinates);
  expect(submitted.status).toBe(202);
  return eventually(async () => {
    const res = await admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
    return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
  }, 20_000);
}

const inlinePosts = (writes: RecordedWrite[]) =>
  writes.filter((w) => w.method === 'POST' && /\/pulls\/\d+\/(reviews|comments)$/.test(w.path.split('?')[0] ?? ''));

// Each test runs several reviews end to end, each with its memory and status passes: past the 5 s default on a busy machine.
describe('findings across pushes', () => {
  it('never repeats a finding, resolves it when fixed, and reopens it when the bug comes back', async () => {
    const number = 801;
    const client = await reviewingClient(admin, fakes, 'github', model, 'Lifecycle');
    const coordinates = client.coordinates(number);
    const writes = fakes.github.writes;
    const wording = {
      title: 'Total ignores the discount',
      message: 'The total uses `price` and `qty` only, so a discount is never applied.',
    };

    // Push 1: the bug is posted once.
    await fakes.github.loadPullRequest(
      push(number, 'a', { 'src/billing.ts': billing(BUG), 'src/tax.ts': 'export const rate = 0.2;\n' }),
    );
    script(wording);
    let mark = writes.length;
    const first = await review(client.clientId, coordinates);
    expect(first.result.findings).toMatchObject([{ publication: 'published', startLine: 42 }]);
    expect(inlinePosts(writes.slice(mark))).toHaveLength(1);
    const fingerprint = first.result.findings[0].fingerprint;

    // Push 2 changes another file: the first is carried forward, no model sees it, nothing repeats.
    await fakes.github.loadPullRequest(
      push(number, 'b', { 'src/billing.ts': billing(BUG), 'src/tax.ts': 'export const rate = 0.25;\n' }),
    );
    mark = writes.length;
    let calls = model.chats.length;
    const second = await review(client.clientId, coordinates);
    const asked = model.chats
      .slice(calls)
      .filter((c) => !isVerifying(c))
      .map(userOf);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((u) => !u.includes('## File: src/billing.ts'))).toBe(true);
    expect(second.result.coverage.files.find((f: { path: string }) => f.path === 'src/billing.ts')).toMatchObject({
      state: 'carriedForward',
      reason: 'unchangedSinceLastReview',
    });
    expect(second.result.lifecycle).toMatchObject({ stillOpen: 1, resolved: 0 });
    expect(inlinePosts(writes.slice(mark))).toHaveLength(0);

    // Push 3 moves the code down 20 lines, and the model words the same finding differently: no repeat.
    await fakes.github.loadPullRequest(
      push(number, 'c', { 'src/billing.ts': billing(BUG, 20), 'src/tax.ts': 'export const rate = 0.25;\n' }),
    );
    script({
      title: 'Discount missing from invoice total',
      message: 'Because `price` times `qty` is all that is summed, discounted orders are overcharged.',
    });
    mark = writes.length;
    calls = model.chats.length;
    const third = await review(client.clientId, coordinates);
    const prompt3 = model.chats.slice(calls).map(userOf).join('\n');
    expect(prompt3).toContain('## File: src/billing.ts');
    expect(prompt3).toContain(
      'Already reported on these files; do not report them again:\n- src/billing.ts: Total ignores the discount',
    );
    expect(prompt3).toMatch(/Since the last review only these lines changed[^\n]*\n- src\/billing\.ts: lines 1–20/);
    expect(third.result.findings).toMatchObject([
      { publication: 'suppressed', reason: 'alreadyReported', startLine: 62 },
    ]);
    expect(inlinePosts(writes.slice(mark))).toHaveLength(0);
    const findingsIn = async (state: string) =>
      (
        await admin.get(
          `/clients/${client.clientId}/reviewing/findings?repositoryId=${GH_REPOSITORY_ID}&pullRequestId=${number}&state=${state}`,
        )
      ).body.items;
    // Remembered once, on the thread it was posted as, last seen at this push.
    expect(await findingsIn('open')).toEqual([
      expect.objectContaining({
        fingerprint,
        state: 'open',
        firstSeenRevision: 'a'.repeat(40),
        lastSeenRevision: 'c'.repeat(40),
        providerThreadId: first.result.findings[0].providerThreadId,
      }),
    ]);
    expect(await findingsIn('resolved')).toEqual([]);

    // Push 4 fixes it: the model finds nothing, the thread is resolved with a note, the result counts it.
    await fakes.github.loadPullRequest(
      push(number, 'd', { 'src/billing.ts': billing(FIX, 20), 'src/tax.ts': 'export const rate = 0.25;\n' }),
    );
    mark = writes.length;
    const fourth = await review(client.clientId, coordinates);
    expect(fourth.result.findings).toEqual([]);
    expect(fourth.result.lifecycle).toMatchObject({ resolved: 1, stillOpen: 0 });
    expect(fourth.result.summary).toContain('1 earlier finding resolved by this push');
    const resolving = writes.slice(mark);
    expect(
      resolving.filter((w) => /\/replies$/.test(w.path) && JSON.stringify(w.body).includes('Resolved in')),
    ).toHaveLength(1);
    expect(resolving.filter((w) => JSON.stringify(w.body).includes('resolveReviewThread'))).toHaveLength(1);
    const resolved = await admin.get(
      `/clients/${client.clientId}/reviewing/findings?repositoryId=${GH_REPOSITORY_ID}&pullRequestId=${number}`,
    );
    expect(resolved.body.items).toMatchObject([{ fingerprint, state: 'resolved', resolvedAtRevision: 'd'.repeat(40) }]);
    expect(await findingsIn('open')).toEqual([]);

    // Push 5 brings the bug back: it is reopened with exactly one new thread.
    await fakes.github.loadPullRequest(
      push(number, 'e', { 'src/billing.ts': billing(BUG, 20), 'src/tax.ts': 'export const rate = 0.25;\n' }),
    );
    script(wording);
    mark = writes.length;
    const fifth = await review(client.clientId, coordinates);
    expect(fifth.result.findings).toMatchObject([{ publication: 'published', startLine: 62 }]);
    expect(fifth.result.lifecycle).toMatchObject({ reopened: 1 });
    expect(inlinePosts(writes.slice(mark))).toHaveLength(1);
    const view = await admin.get(
      `/clients/${client.clientId}/reviewing/pull-requests/findings?repositoryId=${GH_REPOSITORY_ID}&pullRequestId=${number}`,
    );
    expect(view.body).toMatchObject({
      counts: { open: 0, reopened: 1, resolved: 0 },
      lastReview: { jobId: fifth.jobId, headSha: 'e'.repeat(40) },
      open: [{ fingerprint, state: 'reopened', reopenCount: 1, firstSeenRevision: 'a'.repeat(40) }],
    });
  }, 30_000);

  it('supersedes a finding whose file the pull request no longer changes, without resolving its thread', async () => {
    const number = 805;
    const client = await reviewingClient(admin, fakes, 'github', model, 'Superseded');
    const coordinates = client.coordinates(number);
    await fakes.github.loadPullRequest(
      push(number, 'a', { 'src/billing.ts': billing(BUG), 'src/tax.ts': 'export const rate = 0.2;\n' }),
    );
    script({ title: 'Total ignores the discount', message: 'The total uses `price` and `qty` only.' });
    const first = await review(client.clientId, coordinates);
    expect(first.result.findings).toMatchObject([{ publication: 'published' }]);

    // The author reverts src/billing.ts: the pull request changes only src/tax.ts now.
    await fakes.github.loadPullRequest(push(number, 'b', { 'src/tax.ts': 'export const rate = 0.25;\n' }));
    const mark = fakes.github.writes.length;
    const second = await review(client.clientId, coordinates);
    expect(second.status).toBe('completed');
    expect(second.result.lifecycle).toMatchObject({ resolved: 0, stillOpen: 0 });
    const superseded = await admin.get(
      `/clients/${client.clientId}/reviewing/findings?repositoryId=${GH_REPOSITORY_ID}&pullRequestId=${number}&state=superseded`,
    );
    expect(superseded.body.items).toMatchObject([{ fingerprint: first.result.findings[0].fingerprint }]);
    const writes = fakes.github.writes.slice(mark);
    expect(writes.filter((w) => JSON.stringify(w.body).includes('Resolved in'))).toEqual([]);
  }, 30_000);

  it('does not post a dismissed finding or echo a person’s thread, and still posts an unrelated one', async () => {
    const number = 802;
    const client = await reviewingClient(admin, fakes, 'github', model, 'Memory');
    const scenario = push(number, 'a', {
      'src/billing.ts': billing(BUG),
      'src/tax.ts': 'export const rate = Number(process.env.RATE);\n',
      'src/report.ts': 'export const rows = fetchRows().length;\n',
    });
    await fakes.github.loadPullRequest(scenario);
    // A person already pointed out the NaN rate on the same line.
    const person = await fetch(
      `${fakes.github.hostUrl}/api/v3/repositories/${GH_REPOSITORY_ID}/pulls/${number}/comments`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRETS.github}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          body: 'RATE may be unset, and then the rate is NaN.',
          commit_id: scenario.headSha,
          path: 'src/tax.ts',
          line: 1,
          side: 'RIGHT',
        }),
      },
    );
    expect(person.status).toBe(201);
    // The team dismissed the discount finding in an earlier pull request.
    const wording = {
      title: 'Total ignores the discount',
      message: 'The total uses `price` and `qty` only, so a discount is never applied.',
    };
    expect(
      (
        await admin.post(`/clients/${client.clientId}/reviewing/dismiss-finding`, {
          findingMessage: wording.message,
          filePath: 'src/billing.ts',
        })
      ).status,
    ).toBe(201);
    script(wording, (request) => {
      const user = userOf(request);
      const more = [];
      if (user.includes('## File: src/tax.ts')) {
        more.push({
          path: 'src/tax.ts',
          quote: 'export const rate = Number(process.env.RATE);',
          startLine: 1,
          endLine: 1,
          category: 'bug',
          severity: 'error',
          title: 'Rate is NaN when RATE is unset',
          message: 'When `RATE` is unset the rate is NaN, so every tax amount is NaN.',
        });
      }
      if (user.includes('## File: src/report.ts')) {
        more.push({
          path: 'src/report.ts',
          quote: 'export const rows = fetchRows().length;',
          startLine: 1,
          endLine: 1,
          category: 'bug',
          severity: 'error',
          title: 'Rows fetched at import time',
          message: 'Calling `fetchRows` while the module loads queries the database before the connection pool exists.',
        });
      }
      return more;
    });
    const mark = fakes.github.writes.length;
    const job = await review(client.clientId, client.coordinates(number));
    const byTitle = Object.fromEntries(
      job.result.findings.map((f: { title: string; publication: string; reason?: string }) => [
        f.title,
        `${f.publication}${f.reason ? `:${f.reason}` : ''}`,
      ]),
    );
    expect(byTitle).toEqual({
      'Total ignores the discount': 'suppressed:dismissed',
      'Rate is NaN when RATE is unset': 'suppressed:existingThread',
      'Rows fetched at import time': 'published',
    });
    const posted = inlinePosts(fakes.github.writes.slice(mark));
    expect(posted).toHaveLength(1);
    expect(JSON.stringify(posted[0]?.body)).toContain('Rows fetched at import time');

    // Forgetting the dismissal lifts the suppression on the next review of a changed file.
    const dismissals = await admin.get(`/clients/${client.clientId}/reviewing/dismissals`);
    const [dismissal] = dismissals.body.items;
    expect((await admin.delete(`/clients/${client.clientId}/reviewing/dismissals/${dismissal.id}`)).status).toBe(204);
    await fakes.github.loadPullRequest({
      ...scenario,
      headSha: 'b'.repeat(40),
      files: scenario.files.map((f) => (f.path === 'src/billing.ts' ? { ...f, newText: billing(BUG, 1) } : f)),
    });
    const again = await review(client.clientId, client.coordinates(number));
    expect(
      again.result.findings.find((f: { title: string }) => f.title === 'Total ignores the discount'),
    ).toMatchObject({ publication: 'published' });
  }, 30_000);

  it('after a force push reviews the change in full, and still repeats nothing', async () => {
    const number = 804;
    const client = await reviewingClient(admin, fakes, 'github', model, 'Force push');
    const wording = {
      title: 'Total ignores the discount',
      message: 'The total uses `price` and `qty` only, so a discount is never applied.',
    };
    script(wording);
    await fakes.github.loadPullRequest(push(number, 'a', { 'src/billing.ts': billing(BUG) }));
    await review(client.clientId, client.coordinates(number));
    await fakes.github.loadPullRequest(push(number, 'b', { 'src/billing.ts': billing(BUG, 3) }, 'diverged'));
    const calls = model.chats.length;
    const mark = fakes.github.writes.length;
    const job = await review(client.clientId, client.coordinates(number));
    expect(job.result.coverage.incremental).toMatchObject({ relation: 'diverged', focused: false });
    const prompt = model.chats
      .slice(calls)
      .filter((c) => !isVerifying(c))
      .map(userOf)
      .join('\n');
    expect(prompt).toContain('## File: src/billing.ts');
    expect(prompt).not.toContain('Since the last review only these lines changed');
    expect(job.result.findings).toMatchObject([{ publication: 'suppressed', reason: 'alreadyReported' }]);
    expect(inlinePosts(fakes.github.writes.slice(mark))).toHaveLength(0);
  }, 30_000);

  it('carries unchanged files forward: a push changing 1 of 50 files asks the model about that file only', async () => {
    const number = 803;
    const client = await reviewingClient(admin, fakes, 'github', model, 'Fifty files');
    model.respondWith((request) => (isVerifying(request) ? confirmAll(request) : findingsAnswer()));
    const files = (changed: string) =>
      Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => {
          const path = `src/module-${String(i).padStart(2, '0')}.ts`;
          return [
            path,
            `export const value = ${i};\nexport const label = "${path === changed ? 'changed' : 'first'}";\n`,
          ];
        }),
      );
    await fakes.github.loadPullRequest(push(number, 'a', files('')));
    await review(client.clientId, client.coordinates(number));
    await fakes.github.loadPullRequest(push(number, 'b', files('src/module-17.ts')));
    const calls = model.chats.length;
    const job = await review(client.clientId, client.coordinates(number));
    const asked = model.chats.slice(calls).map(userOf);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.match(/## File: /g)).toHaveLength(1);
    expect(asked[0]).toContain('## File: src/module-17.ts');
    expect(job.result.coverage.counts).toMatchObject({ reviewed: 1, carriedForward: 49 });
  }, 30_000);
});
