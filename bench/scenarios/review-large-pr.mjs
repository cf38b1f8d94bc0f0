import { reviewRun } from '../lib/review-run.mjs';

const FILES = 5000;
const CPU_MS_PER_FILE = 2;
const RSS_MB = 300;

/**
 * A 5,000-file pull request through the engine in a fresh process (in-process provider, a model at
 * 20 ms): CPU per file outside the model calls (the model is a timer, so all CPU is orchestration:
 * reading, redacting, planning, prompting, parsing, anchoring, gating, publishing), peak RSS, and the
 * tokens sent per reviewed changed line.
 */
export default {
  name: 'review-large-pr',
  goal: `≤ ${CPU_MS_PER_FILE} ms CPU per file outside model calls and < ${RSS_MB} MB peak RSS on a ${FILES}-file pull request`,
  async run() {
    const r = await reviewRun({ files: FILES, latencyMs: 20, concurrency: 4 });
    const cpuPerFile = r.cpuMs / FILES;
    const tokensPerLine = r.inputTokens / r.changedLines;
    return {
      baseline: `goal ${CPU_MS_PER_FILE} ms/file and ${RSS_MB} MB (absolute)`,
      measured: `${cpuPerFile.toFixed(3)} ms CPU/file (${(r.cpuMs / 1000).toFixed(2)} s), peak RSS ${r.peakRssMb.toFixed(0)} MB, ${tokensPerLine.toFixed(1)} input tokens per reviewed changed line (${r.reviewCalls} chunks, ${r.calls} calls)`,
      ratio: Math.min(CPU_MS_PER_FILE / cpuPerFile, RSS_MB / r.peakRssMb),
      pass: cpuPerFile <= CPU_MS_PER_FILE && r.peakRssMb < RSS_MB,
    };
  },
};
