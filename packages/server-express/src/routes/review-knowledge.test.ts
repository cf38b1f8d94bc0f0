import { createReviewEngine } from '@margin/core';
import type { KnowledgeLookupV1, ReviewEngineV1 } from '@margin/core/spec';
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
 * A review consults code knowledge through the stock host: Margin's own engine, handed a lookup for
 * the job, offers `search_knowledge` and `get_symbol` to a tool-capable model on a high-tier file;
 * the answers reach the model fenced and redacted, the protocol records each call with its
 * citations (never the passages), and the job status shows the citations on the finding that used
 * them. The lookup stands in for the job's knowledge scope, which code knowledge narrows.
 */
const COMMIT = 'd'.repeat(40);
const queries: string[] = [];
const lookup: KnowledgeLookupV1 = {
  async search(query) {
    queries.push(query);
    return [
      {
        sourceId: 'src-auth',
        path: 'lib/tokens.ts',
        startLine: 20,
        endLine: 26,
        commit: COMMIT,
        snippet:
          'export function refresh(token) {\n  const signingKey = "AKIAIOSFODNN7EXAMPLE";\n  return sign(token.claims);\n}',
        score: 0.9,
        matchedBy: 'lexical',
      },
    ];
  },
  async symbol(name) {
    queries.push(name);
    return [
      {
        sourceId: 'src-auth',
        path: 'lib/tokens.ts',
        startLine: 20,
        endLine: 26,
        commit: COMMIT,
        name: 'refresh',
        kind: 'function',
        signature: 'export function refresh(token)',
        snippet: 'export function refresh(token) {\n  return sign(token.claims);\n}',
      },
    ];
  },
};

/** Margin's own engine, with the lookup in the context the worker builds for every job. */
function engineWithKnowledge(knowledge: KnowledgeLookupV1 | undefined): ReviewEngineV1 {
  const engine = createReviewEngine();
  return { specificationVersion: 'v1', review: (job, context) => engine.review(job, { ...context, knowledge }) };
}

const lines = (n: number, line: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => line(i + 1)).join('\n')}\n`;

function sessionScenario(number: number): PullRequestScenario {
  const before = (i: number) => (i === 5 ? '  if (!token) return null;' : `  step(${i});`);
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

describe.each(['sqlite', 'postgres'] as const)('consulting code knowledge during a review (%s)', (dialect) => {
  let h: ReviewHarness;

  beforeAll(async () => {
    h = await startReviewHarness({ dialect, reviewEngine: engineWithKnowledge(lookup) });
  });

  afterAll(async () => {
    await h?.close();
  });

  it('serves search_knowledge and get_symbol, records their citations, and cites them on the finding', async () => {
    queries.length = 0;
    const number = 961;
    await h.fakes.github.loadPullRequest(sessionScenario(number));
    const client = await reviewingClient(h.admin, h.fakes, 'github', h.model, 'Reviews that consult knowledge');
    const served: string[] = [];
    let offered: string[] = [];
    h.model.respondWith((request) => {
      if (isVerifying(request)) return confirmAll(request);
      const results = toolResultsOf(request);
      if (request.tools.some((t) => t.name === 'search_knowledge') && results.length === 0) {
        offered = request.tools.map((t) => t.name);
        return {
          toolCalls: [
            { name: 'search_knowledge', arguments: { query: 'what refresh does with a null token' } },
            { name: 'get_symbol', arguments: { name: 'refresh' } },
          ],
        };
      }
      served.push(...results);
      return findingsAnswer({
        path: 'src/session.ts',
        quote: 'return refresh(token);',
        startLine: 40,
        endLine: 40,
        category: 'bug',
        title: 'Refresh dereferences a null token',
        severity: 'error',
        message: '`refresh` reads `token.claims`, so calling it here with a null token throws.',
        knowledgeRefs: ['K1'],
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
    expect(offered).toEqual(['read_file', 'search_knowledge', 'get_symbol']);
    expect(queries).toEqual(['what refresh does with a null token', 'refresh']);
    const citation = { sourceId: 'src-auth', path: 'lib/tokens.ts', startLine: 20, endLine: 26, commit: COMMIT };
    expect(job.result.findings).toEqual([
      expect.objectContaining({
        title: 'Refresh dereferences a null token',
        publication: 'published',
        citations: [citation],
      }),
    ]);
    // The model got the passages labelled and fenced, with the key redacted.
    expect(served).toHaveLength(2);
    expect(served[0]).toContain('[K1] lib/tokens.ts, lines 20–26');
    expect(served[0]).toContain('<<<UNTRUSTED knowledge nonce=');
    expect(served[0]).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(served[0]).toMatch(/REDACTED/);
    // The protocol records both calls with their citations, never the passages.
    const protocol = await h.admin.get(`/jobs/${job.jobId}/protocol?eventCategory=tool-call`);
    const calls = protocol.body.flatMap((p: { events: Array<{ name: string; body: Record<string, unknown> }> }) =>
      p.events.filter((e) => e.name === 'tool.call').map((e) => e.body),
    );
    expect(calls).toEqual([
      expect.objectContaining({ tool: 'search_knowledge', results: 1, citations: [citation] }),
      expect.objectContaining({ tool: 'get_symbol', results: 1, citations: [citation] }),
    ]);
    expect(JSON.stringify(protocol.body)).not.toContain('token.claims');
  });
});
