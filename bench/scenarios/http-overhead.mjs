import { compareThroughput } from '../lib/compare.mjs';

const server = (name) => new URL(`../servers/${name}`, import.meta.url).pathname;

/** The gateway's fixed cost per request (routing, logging, metrics, security headers) against bare Express. */
export default {
  name: 'http-overhead',
  goal: 'gateway /api/livez at ≥ 0.6× a bare Express JSON handler',
  async run() {
    const result = await compareThroughput({
      baseline: { script: server('bare-express.mjs'), target: (s) => ({ url: s.url }) },
      candidate: { script: server('margin-host.mjs'), target: (s) => ({ url: `${s.url}/api/livez` }) },
    });
    return { ...result, pass: result.ratio >= 0.6 };
  },
};
