// One review of a synthetic pull request, in a process of its own, through Margin's engine with an
// in-process provider and a model that answers after a fixed latency (a timer: no CPU). Prints one
// JSON line: wall time, CPU time, peak RSS, model calls, tokens and changed lines.
import { createMemoryLedger, publishReview, runReview } from '@margin/core';

const files = Number(process.argv[2] ?? 500);
const latencyMs = Number(process.argv[3] ?? 100);
const concurrency = Number(process.argv[4] ?? 4);

/** A realistic small change per file: two hunks, four changed lines, git's context. */
function diffOf(i) {
  const path = `src/module-${String(i).padStart(4, '0')}/service.ts`;
  const context = (from, n) =>
    Array.from({ length: n }, (_, k) => ` export const value${from + k} = compute(${from + k}, options);`);
  const text = [
    `--- a/${path}`,
    `+++ b/${path}`,
    '@@ -10,7 +10,8 @@ export function handler(request: Request)',
    ...context(10, 3),
    `-  const limit = request.query.limit ?? ${i};`,
    `+  const limit = Number(request.query.limit ?? ${i});`,
    '+  if (!Number.isFinite(limit)) throw new Error("limit");',
    ...context(14, 3),
    '@@ -40,6 +41,6 @@ export function render(result: Result)',
    ...context(40, 3),
    `-  return result.items.slice(0, ${i % 50});`,
    `+  return result.items.slice(0, limit);`,
    ...context(44, 2),
    '',
  ].join('\n');
  return { file: { path, changeType: 'modified', additions: 3, deletions: 2 }, text };
}

const pr = {
  ref: { scopePath: 'https://git.example.test/acme', projectKey: 'acme', repositoryId: '1', pullRequestId: 1 },
  title: 'Validate limits everywhere',
  description: 'Limits are parsed as numbers before use.',
  status: 'open',
  isDraft: false,
  sourceBranch: 'feature',
  targetBranch: 'main',
  author: { externalUserId: 'u', login: 'ada', displayName: 'Ada', isBot: false },
  revision: { revisionId: 'h'.repeat(40), headSha: 'h'.repeat(40), baseSha: 'b'.repeat(40) },
  repositoryName: 'app',
};

let threadId = 0;
const source = {
  getPullRequest: async () => pr,
  async *listChangedFiles() {
    for (let i = 0; i < files; i++) yield diffOf(i).file;
  },
  getFileDiff: async (file) => ({
    text: diffOf(Number(/module-(\d+)/.exec(file.path)[1])).text,
    commentable: 'diffLines',
  }),
  getFileContent: async () => undefined,
  async *listThreads() {},
  createThreads: async (input) =>
    input.threads.map(() => ({ ok: true, thread: { threadId: `t${++threadId}`, commentId: 'c' } })),
  createThread: async () => ({ threadId: `t${++threadId}`, commentId: 'c' }),
  editComment: async () => undefined,
};

let calls = 0;
let reviewCalls = 0;
let firstCallAt;
let inputTokens = 0;
const model = {
  specificationVersion: 'v1',
  providerKind: 'kindCompatible',
  remoteModelId: 'bench-model',
  async chat(request) {
    calls++;
    firstCallAt ??= performance.now();
    const prompt = (request.system ?? '').length + request.messages.reduce((n, m) => n + m.content.length, 0);
    const tokens = Math.ceil(prompt / 3.5);
    inputTokens += tokens;
    await new Promise((resolve) => setTimeout(resolve, latencyMs));
    // One finding on the first file of each chunk, so verify, anchor, gate and publish all run.
    const first = /## File: (\S+)/.exec(request.messages[0].content)?.[1];
    // Distinct titles: the same title in many files would rightly be merged into one finding.
    const tag = first ? Number(/module-(\d+)/.exec(first)?.[1] ?? 0) : 0;
    const isVerify = request.system?.startsWith('You check findings');
    if (!isVerify) reviewCalls++;
    const text = isVerify
      ? JSON.stringify({
          items: [
            {
              id: 'F1',
              score: 8,
              why: 'real',
              features: {
                isDefect: true,
                requiresAssumedInput: false,
                isQualityOpinion: false,
                targetsUnchangedCode: false,
                suggestionIsCorrect: null,
              },
              locatedQuote: null,
            },
          ],
        })
      : JSON.stringify({
          findings: first
            ? [
                {
                  path: first,
                  quote: 'if (!Number.isFinite(limit)) throw new Error("limit");',
                  startLine: 12,
                  endLine: 12,
                  category: 'error-handling',
                  title: `Limit check q${tag}x misses case w${tag}z`,
                  evidence: 'A client sending limit=abc gets a 500.',
                  claim: { kind: 'none', symbol: null, path: null },
                  severity: 'warning',
                  confidence: 80,
                  message:
                    'An invalid `limit` throws a bare Error, which the handler turns into a 500 instead of a 400.',
                  suggestion: null,
                  ruleId: null,
                },
              ]
            : [],
          fileNotes: null,
        });
    return {
      text,
      toolCalls: [],
      finishReason: 'stop',
      usage: {
        inputTokens: tokens,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: Math.ceil(text.length / 3.5),
        reasoningTokens: 0,
      },
      protocolMode: 'chatCompletions',
    };
  },
  async embed() {
    throw new Error('not used');
  },
};

const models = {
  async forPurpose(purpose) {
    return {
      purpose,
      resolvedPurpose: 'reviewDefault',
      connectionId: 'c',
      model,
      supportsStructuredOutput: true,
      supportsToolUse: false,
      maxContextTokens: 128000,
      prices: { inputCostPer1MUsd: 2, outputCostPer1MUsd: 8 },
      reasoningEffort: 'none',
    };
  },
};

const protocol = {
  async pass() {
    const events = [];
    return { id: 'p', event: (e) => events.push(e), complete: async () => undefined };
  },
};
let n = 0;
const ids = {
  uuid: () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`,
  randomHex: (b) => 'ab'.repeat(b),
};
const ledger = createMemoryLedger('job');

const cpuBefore = process.cpuUsage();
const started = performance.now();
const run = await runReview({
  jobId: 'job',
  source,
  models,
  memory: { publications: ledger, dismissals: async () => [] },
  protocol,
  clock: { now: () => new Date() },
  ids,
  signal: new AbortController().signal,
  reportProgress: () => undefined,
  revision: null,
  settings: { maxConcurrentModelCalls: concurrency },
});
await publishReview(run, { jobId: 'job', publisher: source, ledger, protocol, signal: new AbortController().signal });
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const changedLines = run.coverage.files.filter((f) => f.state === 'reviewed').length * 5;
console.log(
  JSON.stringify({
    files,
    latencyMs,
    concurrency,
    wallMs,
    firstCallMs: firstCallAt - started,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    calls,
    reviewCalls,
    inputTokens,
    changedLines,
    reviewed: run.coverage.counts.reviewed,
    findings: run.findings.filter((f) => f.publication === 'published').length,
  }),
);
