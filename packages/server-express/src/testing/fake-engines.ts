import { MarginError } from '@margin/core';
import { RESOLVED_HEAD_EVENT, type ReviewEngineV1, type ReviewJobRecord, type ReviewOutcome } from '@margin/core/spec';

export const COMPLETED_OUTCOME: ReviewOutcome = {
  status: 'completed',
  result: {
    summary: 'One finding.',
    findings: [
      {
        id: 'f1',
        fingerprint: 'fp1',
        filePath: 'src/app.ts',
        startLine: 3,
        endLine: 3,
        severity: 'warning',
        confidence: 80,
        category: 'correctness',
        message: 'Possible off-by-one.',
        publication: 'published',
      },
    ],
    coverage: { files: [{ path: 'src/app.ts', state: 'reviewed' }] },
  },
  usage: { inputTokens: 100, cachedInputTokens: 20, outputTokens: 30, estimatedCostUsd: 0.0012, byModel: [] },
};

interface Pending {
  job: ReviewJobRecord;
  signal: AbortSignal;
  finish(outcome: ReviewOutcome | Error): void;
}

/**
 * An engine the test drives: each review waits until the test completes or fails it (or the run is
 * aborted), and writes a protocol pass on the way so the protocol endpoints have something to show.
 */
export class ControlledEngine implements ReviewEngineV1 {
  readonly specificationVersion = 'v1' as const;
  readonly runs: string[] = [];
  readonly aborted: string[] = [];
  /**
   * The head of a pull request (by number) as a review without a revision reads it: such a run
   * records it first, as a real engine's resolve stage does (`RESOLVED_HEAD_EVENT`).
   */
  readonly pullRequestHeads = new Map<number, string>();
  private readonly pending = new Map<string, Pending>();
  private readonly waiters: Array<{ jobId: string; resolve(): void }> = [];

  async review(job: ReviewJobRecord, ctx: Parameters<ReviewEngineV1['review']>[1]): Promise<ReviewOutcome> {
    this.runs.push(job.id);
    const head = job.reviewRevision ? undefined : this.pullRequestHeads.get(job.codeReview.number);
    if (head) {
      const resolve = await ctx.protocol.pass(RESOLVED_HEAD_EVENT.stage, 'Read the pull request');
      resolve.event({
        kind: 'call',
        name: RESOLVED_HEAD_EVENT.name,
        eventCategory: RESOLVED_HEAD_EVENT.eventCategory,
        body: { headSha: head },
      });
      await resolve.complete('succeeded');
    }
    const plan = await ctx.protocol.pass('plan', 'Planning');
    plan.event({
      kind: 'decision',
      name: 'files.selected',
      eventCategory: 'planning',
      body: { files: ['src/app.ts'] },
    });
    plan.event({
      kind: 'call',
      name: 'chat',
      eventCategory: 'ai-call',
      inputTokens: 100,
      outputTokens: 30,
      durationMs: 12,
      body: { prompt: 'Review this diff' },
    });
    await plan.complete('succeeded', { inputTokens: 100, cachedInputTokens: 20, outputTokens: 30 });
    ctx.reportProgress({ filesTotal: 4, filesDone: 1 });
    const outcome = await new Promise<ReviewOutcome | Error>((resolve) => {
      this.pending.set(job.id, { job, signal: ctx.signal, finish: resolve });
      ctx.signal.addEventListener('abort', () => {
        this.aborted.push(job.id);
        resolve(new Error('aborted'));
      });
      for (const w of this.waiters.filter((x) => x.jobId === job.id)) w.resolve();
    });
    this.pending.delete(job.id);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  /** Resolves once the job's review has started on this engine. */
  started(jobId: string): Promise<void> {
    if (this.pending.has(jobId)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ jobId, resolve }));
  }

  complete(jobId: string, outcome: ReviewOutcome = COMPLETED_OUTCOME): void {
    this.take(jobId).finish(outcome);
  }

  fail(jobId: string, message = 'The model answered nonsense twice.'): void {
    this.take(jobId).finish(MarginError.provider('invalidResponse', message));
  }

  isRunning(jobId: string): boolean {
    return this.pending.has(jobId);
  }

  private take(jobId: string): Pending {
    const p = this.pending.get(jobId);
    if (!p) throw new Error(`job ${jobId} is not running on this engine`);
    return p;
  }
}

/** An engine that completes every review at once, counting runs per job (shared across hosts). */
export class CountingEngine implements ReviewEngineV1 {
  readonly specificationVersion = 'v1' as const;
  running = 0;
  maxRunning = 0;

  constructor(
    readonly runs: Map<string, number> = new Map(),
    private readonly holdMs = 0,
    readonly shared?: CountingEngine,
  ) {}

  async review(job: ReviewJobRecord, ctx: Parameters<ReviewEngineV1['review']>[1]): Promise<ReviewOutcome> {
    const pass = await ctx.protocol.pass('review', 'Counting review');
    pass.event({ kind: 'decision', name: 'counted', eventCategory: 'operational', body: { jobId: job.id } });
    await pass.complete('succeeded');
    const counter = this.shared ?? this;
    counter.running++;
    counter.maxRunning = Math.max(counter.maxRunning, counter.running);
    this.runs.set(job.id, (this.runs.get(job.id) ?? 0) + 1);
    try {
      if (this.holdMs) await new Promise((r) => setTimeout(r, this.holdMs));
      return COMPLETED_OUTCOME;
    } finally {
      counter.running--;
    }
  }
}

/** Polls until `check` passes or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 20,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
