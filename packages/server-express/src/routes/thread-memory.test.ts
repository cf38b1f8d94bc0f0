import type { PullRequestScenario } from '@margin/core/testing';
import {
  ADO_PROJECT,
  ADO_REPOSITORY_ID,
  type FakeChatModel,
  type FakeChatRequest,
  GH_REPOSITORY_ID,
  GH_REPOSITORY_NODE_ID,
} from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, type TestApi } from '../testing/index.js';
import {
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  startReviewHarness,
  systemOf,
  userOf,
} from '../testing/review-test-support.js';
import { type ScmFakes, SECRETS } from '../testing/scm-test-support.js';

let fakes: ScmFakes;
let model: FakeChatModel;
let admin: TestApi;
let harness: ReviewHarness | undefined;

const numbered = (lines: string[]) => `${lines.join('\n')}\n`;
const steps = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `  step(${from + i});`);
const BUG = '  const total = price * qty;';
const REPORT = 'export const rows = fetchRows().length;';

/** `src/billing.ts` with the bug on line 42, pushed down by `header` lines. */
const billing = (header = 0) =>
  numbered([
    ...Array.from({ length: header }, (_, i) => `  // header ${i + 1}`),
    ...steps(1, 41),
    BUG,
    ...steps(43, 60),
  ]);

function push(number: number, head: string, files: Record<string, string>): PullRequestScenario {
  return {
    number,
    title: 'Compute invoice totals',
    description: 'Totals from price and quantity.',
    sourceBranch: `feature/${number}`,
    targetBranch: 'main',
    headSha: head.repeat(40),
    baseSha: '0'.repeat(40),
    relationToPreviousHead: 'ahead',
    files: Object.entries(files).map(([path, newText]) => ({
      path,
      changeType: 'modified' as const,
      oldText: path === 'src/billing.ts' ? numbered(steps(1, 60)) : `// ${path} at base\n`,
      newText,
    })),
  };
}

const FIRST_WORDING = {
  title: 'Total ignores the discount',
  message: 'The total uses `price` and `qty` only, so a discount is never applied.',
};
const REWORDED = {
  title: 'Discount missing from invoice total',
  message: 'Because `price` times `qty` is all that is summed, discounted orders are overcharged.',
};

/** The model finds the billing bug (worded as given) and, in `src/report.ts`, an unrelated defect. */
function script(wording: { title: string; message: string }) {
  model.respondWith((request: FakeChatRequest) => {
    if (isVerifying(request)) return confirmAll(request);
    const user = userOf(request);
    const found: Array<Record<string, unknown>> = [];
    if (/^\s*\d+ \+\s+const total = price \* qty;$/m.test(user)) {
      found.push({
        path: 'src/billing.ts',
        quote: BUG.trim(),
        startLine: 42,
        endLine: 42,
        category: 'bug',
        severity: 'error',
        ...wording,
      });
    }
    if (user.includes('## File: src/report.ts')) {
      found.push({
        path: 'src/report.ts',
        quote: REPORT,
        startLine: 1,
        endLine: 1,
        category: 'bug',
        severity: 'error',
        title: 'Rows fetched at import time',
        message: 'Calling `fetchRows` while the module loads queries the database before the connection pool exists.',
      });
    }
    return findingsAnswer(...found);
  });
}

/** GitHub's GraphQL API of the fake, as a person's browser would call it. */
const graphql = (query: string, variables: Record<string, unknown>) =>
  fetch(`${fakes.github.hostUrl}/api/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRETS.github}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });

/** What a person clicks: "Resolve conversation" (or "Unresolve") on the thread of the finding's root comment. */
const setResolved = async (number: number, threadId: string, resolved: boolean) => {
  const listed = await graphql('query MarginReviewThreads { threads }', {
    repository: GH_REPOSITORY_NODE_ID,
    number,
  });
  const answer = (await listed.json()) as {
    data: {
      node: {
        pullRequest: {
          reviewThreads: { nodes: Array<{ id: string; comments: { nodes: Array<{ databaseId: number }> } }> };
        };
      };
    };
  };
  const nodes = answer.data.node.pullRequest.reviewThreads.nodes;
  const root = Number(threadId.replace(/^review-comment:/, ''));
  const node = nodes.find((n) => n.comments.nodes[0]?.databaseId === root);
  const operation = resolved ? 'MarginResolveThread' : 'MarginUnresolveThread';
  const res = await graphql(`mutation ${operation} { thread }`, { thread: node?.id });
  expect(((await res.json()) as { data?: unknown }).data).toBeTruthy();
};

interface FindingBody {
  title: string;
  filePath: string;
  publication: string;
  reason?: string;
  memoryId?: string;
  providerThreadId?: string;
}

async function review(clientId: string, coordinates: Record<string, unknown>) {
  const submitted = await admin.post(`/clients/${clientId}/reviewing/jobs/by-coordinates`, coordinates);
  expect(submitted.status).toBe(202);
  const job = await eventually(async () => {
    const res = await admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
    return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
  }, 20_000);
  expect(job.status).toBe('completed');
  return job as { jobId: string; result: { findings: FindingBody[] } };
}

const byPath = (findings: FindingBody[], path: string) => findings.find((f) => f.filePath === path) as FindingBody;

async function memoryOf(clientId: string, query = '') {
  const res = await admin.get(`/clients/${clientId}/reviewing/memory${query}`);
  expect(res.status).toBe(200);
  return res.body.items as Array<Record<string, unknown>>;
}

async function memoryEvents(jobId: string) {
  const res = await admin.get(`/jobs/${jobId}/protocol?eventCategory=memory`);
  expect(res.status).toBe(200);
  return (res.body as Array<{ events: Array<{ name: string; body: Record<string, unknown> }> }>).flatMap(
    (p) => p.events,
  );
}

describe.each(['sqlite', 'postgres'] as const)('thread memory through the stock host on %s', (dialect) => {
  beforeAll(async () => {
    harness = await startReviewHarness({ dialect });
    ({ fakes, model, admin } = harness);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('GitHub: a thread a person resolved holds the finding back on another pull request, and reopening it forgets it', async () => {
    const client = await reviewingClient(admin, fakes, 'github', model, 'Memory on GitHub');
    // Pull request 910 gets the finding; a person resolves its thread without touching the code.
    script(FIRST_WORDING);
    await fakes.github.loadPullRequest(
      push(910, 'a', { 'src/billing.ts': billing(), 'src/tax.ts': 'export const rate = 0.2;\n' }),
    );
    const first = await review(client.clientId, client.coordinates(910));
    const posted = byPath(first.result.findings, 'src/billing.ts');
    expect(posted).toMatchObject({ publication: 'published' });
    await setResolved(910, posted.providerThreadId as string, true);

    // The next push reads the thread and remembers the decision, once.
    await fakes.github.loadPullRequest(
      push(910, 'b', { 'src/billing.ts': billing(), 'src/tax.ts': 'export const rate = 0.25;\n' }),
    );
    await review(client.clientId, client.coordinates(910));
    const [remembered, ...more] = await memoryOf(client.clientId);
    expect(more).toEqual([]);
    expect(remembered).toEqual({
      id: expect.any(String),
      clientId: client.clientId,
      source: 'threadResolved',
      intent: 'acceptedByHuman',
      filePath: 'src/billing.ts',
      summary: `${FIRST_WORDING.title}\n${FIRST_WORDING.message}`,
      findingFingerprint: expect.any(String),
      providerThreadId: posted.providerThreadId,
      repositoryId: GH_REPOSITORY_ID,
      pullRequestId: 910,
      createdAt: expect.any(String),
      createdBy: null,
    });

    // Another pull request of the repository: the reworded finding is held back, the unrelated one posted.
    script(REWORDED);
    await fakes.github.loadPullRequest(push(911, 'd', { 'src/billing.ts': billing(), 'src/report.ts': `${REPORT}\n` }));
    const calls = model.chats.length;
    const other = await review(client.clientId, client.coordinates(911));
    expect(byPath(other.result.findings, 'src/billing.ts')).toMatchObject({
      title: REWORDED.title,
      publication: 'suppressed',
      reason: 'memory',
      memoryId: remembered?.id,
    });
    expect(byPath(other.result.findings, 'src/report.ts')).toMatchObject({ publication: 'published' });
    const prompt = model.chats.slice(calls).map(userOf).join('\n');
    expect(prompt).toMatch(
      /Past decisions of this team[^\n]*\n<<<UNTRUSTED past-decisions nonce=\w+>>>\n- src\/billing\.ts: accepted without a change: Total ignores the discount/,
    );
    expect(await memoryEvents(other.jobId)).toContainEqual(
      expect.objectContaining({
        name: 'finding.suppressed',
        body: expect.objectContaining({ reason: 'memory', memoryId: remembered?.id, intent: 'acceptedByHuman' }),
      }),
    );

    // The person reopens the thread: the next review of 910 forgets the decision.
    await setResolved(910, posted.providerThreadId as string, false);
    await fakes.github.loadPullRequest(
      push(910, 'c', { 'src/billing.ts': billing(), 'src/tax.ts': 'export const rate = 0.3;\n' }),
    );
    const reopened = await review(client.clientId, client.coordinates(910));
    expect(await memoryOf(client.clientId)).toEqual([]);
    expect(await memoryEvents(reopened.jobId)).toContainEqual(
      expect.objectContaining({ name: 'memory.removed', body: expect.objectContaining({ reason: 'reopened' }) }),
    );
  }, 60_000);

  it('Azure DevOps: a won’t-fix stops the finding here and elsewhere until the memory is deleted; a rejecting reply and a dismissal are remembered', async () => {
    const client = await reviewingClient(admin, fakes, 'ado', model, 'Memory on Azure DevOps');
    const threadUrl = (number: number, thread: string, tail = '') =>
      `${fakes.ado.orgUrl}/${encodeURIComponent(ADO_PROJECT)}/_apis/git/repositories/${ADO_REPOSITORY_ID}/pullRequests/${number}/threads/${thread}${tail}?api-version=7.1`;
    const headers = (person?: string) => ({
      authorization: `Basic ${Buffer.from(`:${SECRETS.adoPat}`).toString('base64')}`,
      'content-type': 'application/json',
      ...(person ? { 'x-fake-author': person } : {}),
    });

    script(FIRST_WORDING);
    await fakes.ado.loadPullRequest(push(920, 'a', { 'src/billing.ts': billing() }));
    const first = await review(client.clientId, client.coordinates(920));
    const thread = byPath(first.result.findings, 'src/billing.ts').providerThreadId as string;
    const closed = await fetch(threadUrl(920, thread), {
      method: 'PATCH',
      headers: headers(),
      body: JSON.stringify({ status: 'wontFix' }),
    });
    expect(closed.status).toBe(200);

    // The next push moves the code and the model rewords the finding: it is not posted again.
    script(REWORDED);
    await fakes.ado.loadPullRequest(push(920, 'b', { 'src/billing.ts': billing(2) }));
    const again = await review(client.clientId, client.coordinates(920));
    expect(byPath(again.result.findings, 'src/billing.ts')).toMatchObject({ publication: 'suppressed' });
    const [wontFix] = await memoryOf(client.clientId, '?source=threadResolved');
    expect(wontFix).toMatchObject({
      source: 'threadResolved',
      intent: 'rejected',
      providerThreadId: thread,
      repositoryId: ADO_REPOSITORY_ID,
      pullRequestId: 920,
      filePath: 'src/billing.ts',
    });

    // Nor on another pull request of the repository; the unrelated finding is posted.
    await fakes.ado.loadPullRequest(push(921, 'd', { 'src/billing.ts': billing(), 'src/report.ts': `${REPORT}\n` }));
    const other = await review(client.clientId, client.coordinates(921));
    expect(byPath(other.result.findings, 'src/billing.ts')).toMatchObject({
      publication: 'suppressed',
      reason: 'memory',
      memoryId: wontFix?.id,
    });
    const report = byPath(other.result.findings, 'src/report.ts');
    expect(report).toMatchObject({ publication: 'published' });

    // Deleting the memory brings the finding back on the next push.
    expect((await admin.delete(`/clients/${client.clientId}/reviewing/memory/${wontFix?.id}`)).status).toBe(204);
    expect((await admin.delete(`/clients/${client.clientId}/reviewing/memory/${wontFix?.id}`)).status).toBe(404);
    // The thread is still closed as won't-fix, but the next review of its pull request does not learn it back.
    await fakes.ado.loadPullRequest(push(920, 'c', { 'src/billing.ts': billing(3) }));
    await review(client.clientId, client.coordinates(920));
    expect(await memoryOf(client.clientId, '?source=threadResolved')).toEqual([]);
    await fakes.ado.loadPullRequest(push(921, 'e', { 'src/billing.ts': billing(1), 'src/report.ts': `${REPORT}\n` }));
    const back = await review(client.clientId, client.coordinates(921));
    expect(byPath(back.result.findings, 'src/billing.ts')).toMatchObject({ publication: 'published' });

    // A person answers the report thread that it is a false positive: remembered as their rejection.
    const replied = await fetch(threadUrl(921, report.providerThreadId as string, '/comments'), {
      method: 'POST',
      headers: headers('dana'),
      body: JSON.stringify({ content: 'This is a false positive: fetchRows is lazy.', parentCommentId: 1 }),
    });
    expect(replied.status).toBe(200);
    await fakes.ado.loadPullRequest(
      push(921, 'f', { 'src/billing.ts': billing(1), 'src/report.ts': `${REPORT}\n// touched\n` }),
    );
    await review(client.clientId, client.coordinates(921));
    expect(await memoryOf(client.clientId, '?source=replyRejected')).toEqual([
      expect.objectContaining({
        intent: 'rejected',
        filePath: 'src/report.ts',
        providerThreadId: report.providerThreadId,
        pullRequestId: 921,
        createdBy: 'dana@acme.example',
      }),
    ]);

    // A dismissal is a memory record too, and forgetting the dismissal forgets it.
    const dismissal = await admin.post(`/clients/${client.clientId}/reviewing/dismiss-finding`, {
      findingMessage: 'Magic numbers in tax rates',
      filePath: '/src/tax.ts',
    });
    expect(dismissal.status).toBe(201);
    expect(await memoryOf(client.clientId, '?source=adminDismissed&filePath=src/tax.ts')).toEqual([
      expect.objectContaining({
        source: 'adminDismissed',
        intent: 'rejected',
        summary: 'Magic numbers in tax rates',
        repositoryId: null,
        pullRequestId: null,
        providerThreadId: null,
      }),
    ]);
    expect((await admin.delete(`/clients/${client.clientId}/reviewing/dismissals/${dismissal.body.id}`)).status).toBe(
      204,
    );
    expect(await memoryOf(client.clientId, '?source=adminDismissed')).toEqual([]);
  }, 60_000);

  it('with memoryReconsideration mapped, puts a matching finding to that model and follows its verdict', async () => {
    const client = await reviewingClient(admin, fakes, 'github', model, 'Memory reconsidered');
    const connection = await admin.get(`/clients/${client.clientId}/ai-connections/${client.aiConnectionId}`);
    const judge = await admin.post(`/clients/${client.clientId}/logical-models/overrides`, {
      name: 'memory-judge',
      capability: 'chat',
      connectionId: client.aiConnectionId,
      configuredModelId: connection.body.configuredModels[0].id,
      protocolMode: 'auto',
    });
    expect(judge.status).toBe(201);
    const mapped = await admin.put(`/clients/${client.clientId}/logical-models/purposes/memoryReconsideration`, {
      logicalModelName: 'memory-judge',
    });
    expect(mapped.status).toBe(200);

    script(FIRST_WORDING);
    await fakes.github.loadPullRequest(push(930, 'a', { 'src/billing.ts': billing() }));
    const first = await review(client.clientId, client.coordinates(930));
    await setResolved(930, byPath(first.result.findings, 'src/billing.ts').providerThreadId as string, true);
    await fakes.github.loadPullRequest(
      push(930, 'b', { 'src/billing.ts': billing(), 'src/tax.ts': 'export const rate = 0.2;\n' }),
    );
    await review(client.clientId, client.coordinates(930));
    const [remembered] = await memoryOf(client.clientId);
    expect(remembered).toMatchObject({ intent: 'acceptedByHuman', pullRequestId: 930 });

    /** The reviewer finds the bug again, reworded; the memory model answers `keep` (or not) for every item. */
    const withVerdict = (keep: boolean) =>
      model.respondWith((request: FakeChatRequest) => {
        if (systemOf(request).startsWith('You decide whether an automated code reviewer')) {
          const ids = [...userOf(request).matchAll(/^(F\d+)\.$/gm)].map((m) => m[1]);
          return {
            content: JSON.stringify({
              items: ids.map((id) => ({ id, yes: keep, why: 'Judged against the past decision.' })),
            }),
          };
        }
        if (isVerifying(request)) return confirmAll(request);
        return findingsAnswer({
          path: 'src/billing.ts',
          quote: BUG.trim(),
          startLine: 42,
          endLine: 42,
          category: 'bug',
          severity: 'error',
          ...REWORDED,
        });
      });

    // The model says keep: posted after all, and the verdict is a memory event.
    withVerdict(true);
    await fakes.github.loadPullRequest(push(931, 'd', { 'src/billing.ts': billing() }));
    const kept = await review(client.clientId, client.coordinates(931));
    expect(byPath(kept.result.findings, 'src/billing.ts')).toMatchObject({ publication: 'published' });
    expect(await memoryEvents(kept.jobId)).toContainEqual(
      expect.objectContaining({
        name: 'memory.reconsidered',
        body: expect.objectContaining({ verdict: 'keep', memoryId: remembered?.id }),
      }),
    );

    // The model says suppress: held back with the memory's id.
    withVerdict(false);
    await fakes.github.loadPullRequest(push(932, 'e', { 'src/billing.ts': billing() }));
    const held = await review(client.clientId, client.coordinates(932));
    expect(byPath(held.result.findings, 'src/billing.ts')).toMatchObject({
      publication: 'suppressed',
      reason: 'memory',
      memoryId: remembered?.id,
    });
    expect(await memoryEvents(held.jobId)).toContainEqual(
      expect.objectContaining({
        name: 'memory.reconsidered',
        body: expect.objectContaining({ verdict: 'suppress', reason: 'memory' }),
      }),
    );
  }, 60_000);

  it('answers a client’s mistakes with 400 and 404, never 500', async () => {
    const client = await reviewingClient(admin, fakes, 'github', model, 'Memory mistakes');
    const bad = await admin.get(`/clients/${client.clientId}/reviewing/memory?source=everything`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed' });
    const missing = await admin.delete(`/clients/${client.clientId}/reviewing/memory/not-a-record`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'not_found' });
  });
});
