import { compareThroughput } from '../lib/compare.mjs';

const server = (name) => new URL(`../servers/${name}`, import.meta.url).pathname;

/**
 * The hot read path: an authenticated job-status read (JWT check, the user's active state, the job,
 * the caller's role on its client, a ~4 KB JSON body with ten findings) against the smallest Express
 * JSON handler, on the same machine in alternating rounds.
 */
export default {
  name: 'job-status-reads',
  goal: 'authenticated GET /api/reviewing/jobs/{id}/status at ≥ 0.6× a bare Express JSON handler',
  async run() {
    const result = await compareThroughput({
      baseline: { script: server('bare-express.mjs'), target: (s) => ({ url: s.url }) },
      candidate: {
        script: server('margin-job-status.mjs'),
        target: (s) => ({ url: s.url, headers: { authorization: `Bearer ${s.extra[0]}` } }),
      },
    });
    return { ...result, pass: result.ratio >= 0.6 };
  },
};
