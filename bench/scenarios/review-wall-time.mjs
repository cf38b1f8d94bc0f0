import { reviewRun } from '../lib/review-run.mjs';

const FILES = 500;
const LATENCY_MS = Number(process.env.MARGIN_BENCH_MODEL_LATENCY_MS ?? 500);
const CONCURRENCY = 4;
const GOAL = 1.15;

/**
 * A 500-file pull request through the engine (in-process provider, a model answering after a fixed
 * latency), against the ideal wall time for the concurrency bound: the chunk conversations run in
 * waves of `CONCURRENCY`, each as long as its model calls. Planning, anchoring, gating and
 * publishing are the overhead measured.
 */
export default {
  name: 'review-wall-time',
  goal: `a ${FILES}-file pull request within ${GOAL}× the ideal wall time for ${CONCURRENCY} concurrent model calls`,
  async run() {
    const r = await reviewRun({ files: FILES, latencyMs: LATENCY_MS, concurrency: CONCURRENCY });
    const callsPerChunk = r.calls / r.reviewCalls;
    const idealMs = Math.ceil(r.reviewCalls / CONCURRENCY) * callsPerChunk * LATENCY_MS;
    const slowdown = r.wallMs / idealMs;
    return {
      baseline: `ideal ${(idealMs / 1000).toFixed(2)} s (${r.reviewCalls} chunks, ${r.calls} model calls of ${LATENCY_MS} ms, ${CONCURRENCY} at once)`,
      measured: `${(r.wallMs / 1000).toFixed(2)} s = ${slowdown.toFixed(3)}× ideal (first model call after ${r.firstCallMs.toFixed(0)} ms; ${r.findings} threads published)`,
      ratio: GOAL / slowdown,
      pass: slowdown <= GOAL,
    };
  },
};
