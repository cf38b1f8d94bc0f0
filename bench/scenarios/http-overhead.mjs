import { measureThroughput } from '../lib/load.mjs';
import { startServer } from '../lib/processes.mjs';

/** The gateway's fixed cost per request (logging, metrics, helmet, routing) against bare Express. */
export default {
  name: 'http-overhead',
  goal: 'gateway /api/livez at ≥ 0.6× a bare Express JSON handler',
  async run() {
    const bare = await startServer(new URL('../servers/bare-express.mjs', import.meta.url).pathname);
    const baseline = await measureThroughput({ url: bare.url }).finally(() => bare.stop());
    const margin = await startServer(new URL('../servers/margin-host.mjs', import.meta.url).pathname);
    const measured = await measureThroughput({ url: `${margin.url}/api/livez` }).finally(() => margin.stop());
    const ratio = measured.requestsPerSecond / baseline.requestsPerSecond;
    return {
      baseline: `${baseline.requestsPerSecond.toFixed(0)} req/s`,
      measured: `${measured.requestsPerSecond.toFixed(0)} req/s (p99 ${measured.p99Ms} ms)`,
      ratio,
      pass: ratio >= 0.6,
    };
  },
};
