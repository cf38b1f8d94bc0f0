import { measureThroughput } from './load.mjs';
import { startServer } from './processes.mjs';

/**
 * Throughput of a candidate against a baseline, measured in alternating rounds on the same machine
 * and compared by their medians, so a burst of noise from a neighbour skews neither side alone.
 * `target(server)` gives the URL and headers to load once the server printed `ready`.
 */
export async function compareThroughput({ baseline, candidate, rounds = 3, seconds = 4 }) {
  const samples = { baseline: [], candidate: [] };
  for (let round = 0; round < rounds; round++) {
    for (const [side, spec] of [
      ['baseline', baseline],
      ['candidate', candidate],
    ]) {
      const server = await startServer(spec.script);
      try {
        const { url, headers } = spec.target(server);
        samples[side].push(await measureThroughput({ url, headers, seconds }));
      } finally {
        await server.stop();
      }
    }
  }
  const median = (list) =>
    [...list].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(list.length / 2)];
  const base = median(samples.baseline);
  const cand = median(samples.candidate);
  const ratio = cand.requestsPerSecond / base.requestsPerSecond;
  const spread = (list) => list.map((s) => s.requestsPerSecond.toFixed(0)).join(', ');
  return {
    baseline: `${base.requestsPerSecond.toFixed(0)} req/s (rounds: ${spread(samples.baseline)})`,
    measured: `${cand.requestsPerSecond.toFixed(0)} req/s, p99 ${cand.p99Ms} ms (rounds: ${spread(samples.candidate)})`,
    ratio,
  };
}
