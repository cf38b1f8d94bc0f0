import type { PullRequestScenario } from '@margin/core/testing';
import type { FakeChatRequest } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/index.js';
import {
  confirmAll,
  findingsAnswer,
  isVerifying,
  type ReviewHarness,
  reviewingClient,
  startReviewHarness,
} from '../testing/review-test-support.js';

/**
 * The reviewing model reads code outside the diff through the stock host: a tool-capable model on
 * a high-tier file (its path says session) calls `read_file`, the host serves the lines from the
 * provider at the head revision, fenced and redacted, and records the call in the protocol.
 */
let h: ReviewHarness;

beforeAll(async () => {
  h = await startReviewHarness();
});

afterAll(async () => {
  await h?.close();
});

const lines = (n: number, line: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => line(i + 1)).join('\n')}\n`;

function sessionScenario(number: number): PullRequestScenario {
  const before = (i: number) =>
    i === 3 ? '  const apiKey = "AKIAIOSFODNN7EXAMPLE";' : i === 5 ? '  if (!token) return null;' : `  step(${i});`;
  return {
    number,
    title: 'Refresh sessions',
    description: 'Sessions are refreshed before they expire.',
    sourceBranch: `feature/sessions-${number}`,
    targetBranch: 'main',
    headSha: 'a'.repeat(40),
    baseSha: 'b'.repeat(40),
    files: [
      {
        path: 'src/session.ts',
        changeType: 'modified',
        oldText: lines(60, before),
        newText: lines(60, (i) => (i === 40 ? '  return refresh(token);' : before(i))),
      },
    ],
    branchFiles: { main: {} },
  };
}

const toolResultsOf = (request: FakeChatRequest) =>
  request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content ?? ''));

describe('reading code outside the diff', () => {
  it('serves read_file from the provider at the head revision, fenced and redacted, and records the call', async () => {
    const number = 951;
    await h.fakes.github.loadPullRequest(sessionScenario(number));
    const client = await reviewingClient(h.admin, h.fakes, 'github', h.model, 'Reviews that read');
    const served: string[] = [];
    h.model.respondWith((request) => {
      if (isVerifying(request)) return confirmAll(request);
      const offered = request.tools.some((t) => t.name === 'read_file');
      const results = toolResultsOf(request);
      if (offered && results.length === 0) {
        return { toolCalls: [{ name: 'read_file', arguments: { path: 'src/session.ts', startLine: 1, endLine: 6 } }] };
      }
      served.push(...results);
      return findingsAnswer({
        path: 'src/session.ts',
        quote: 'return refresh(token);',
        startLine: 40,
        endLine: 40,
        category: 'bug',
        title: 'Refresh runs without the token check',
        severity: 'error',
        message: 'The guard at line 5 returns early only above; `refresh(token)` here runs for a null token.',
      });
    });

    const submitted = await h.admin.post(
      `/clients/${client.clientId}/reviewing/jobs/by-coordinates`,
      client.coordinates(number),
    );
    expect(submitted.status).toBe(202);
    const job = await eventually(async () => {
      const res = await h.admin.get(`/reviewing/jobs/${submitted.body.jobId}/status`);
      return ['queued', 'running'].includes(res.body.status) ? undefined : res.body;
    }, 20_000);

    expect(job.status).toBe('completed');
    expect(job.result.findings).toEqual([
      expect.objectContaining({ title: 'Refresh runs without the token check', publication: 'published' }),
    ]);
    // The model got the lines it asked for, numbered and fenced, with the key redacted.
    expect(served).toHaveLength(1);
    expect(served[0]).toContain('if (!token) return null;');
    expect(served[0]).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(served[0]).toMatch(/REDACTED/);
    // The protocol records the read, never its content.
    const protocol = await h.admin.get(`/jobs/${job.jobId}/protocol?eventCategory=tool-call`);
    const calls = protocol.body.flatMap((p: { events: Array<{ name: string; body: Record<string, unknown> }> }) =>
      p.events.filter((e) => e.name === 'tool.call').map((e) => e.body),
    );
    expect(calls).toEqual([expect.objectContaining({ path: 'src/session.ts' })]);
    expect(JSON.stringify(protocol.body)).not.toContain('if (!token) return null;');
  });
});
