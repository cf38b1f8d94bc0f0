import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { startServer } from '../lib/processes.mjs';

const GOAL = 0.5;
const ROUNDS = 3;
const SECONDS = Number(process.env.MARGIN_BENCH_SECONDS ?? 6);
const fixture = new URL(
  '../../packages/providers/src/scm/github/__fixtures__/webhook-pull-request-opened.json',
  import.meta.url,
);
const server = (name) => new URL(`../servers/${name}`, import.meta.url).pathname;

/**
 * Webhook intake on SQLite against raw SQLite inserts, in the same run: signed GitHub `pull_request`
 * deliveries, each with its own delivery id, posted by autocannon (32 connections) to Margin's
 * receiver and to a bare Express handler that inserts each body as one row. The figure of each side
 * is the rows durably recorded per second (read back from its database after the run), in
 * alternating rounds compared by their medians.
 */
export default {
  name: 'webhook-intake',
  goal: `webhook deliveries durably recorded on SQLite at ≥ ${GOAL}× raw SQLite inserts of the same bodies`,
  async run() {
    const body = readFileSync(fixture, 'utf8');
    const sides = {
      baseline: { script: server('bare-sqlite-intake.mjs'), table: 'deliveries', where: '1 = 1' },
      candidate: {
        script: server('margin-webhook-intake.mjs'),
        table: 'webhook_deliveries',
        where: "outcome = 'accepted'",
      },
    };
    const samples = { baseline: [], candidate: [] };
    let failed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [side, spec] of Object.entries(sides)) {
        const host = await startServer(spec.script);
        try {
          const [path, secret, databaseFile] = host.extra;
          const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
          const run = (duration) =>
            autocannon({
              url: host.url,
              connections: 32,
              pipelining: 1,
              duration,
              requests: [
                {
                  setupRequest: (req) => ({
                    ...req,
                    method: 'POST',
                    path,
                    body,
                    headers: {
                      'content-type': 'application/json',
                      'x-github-event': 'pull_request',
                      'x-github-delivery': randomUUID(),
                      'x-hub-signature-256': signature,
                    },
                  }),
                },
              ],
            });
          await run(1); // warm-up, counted out below
          const count = () => {
            const db = new Database(databaseFile, { readonly: true });
            try {
              return db.prepare(`select count(*) as n from ${spec.table} where ${spec.where}`).get().n;
            } finally {
              db.close();
            }
          };
          const before = count();
          const result = await run(SECONDS);
          failed += result.non2xx + result.errors;
          samples[side].push({ perSecond: (count() - before) / SECONDS, p99: result.latency.p99 });
        } finally {
          await host.stop();
        }
      }
    }
    const median = (list) => [...list].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(list.length / 2)];
    const rounds = (list) => list.map((s) => s.perSecond.toFixed(0)).join(', ');
    const base = median(samples.baseline);
    const cand = median(samples.candidate);
    const ratio = cand.perSecond / base.perSecond;
    return {
      baseline: `${base.perSecond.toFixed(0)} rows/s (rounds: ${rounds(samples.baseline)})`,
      measured: `${cand.perSecond.toFixed(0)} deliveries/s recorded, p99 ${cand.p99} ms, ${failed} failed (rounds: ${rounds(samples.candidate)}; body ${Buffer.byteLength(body)} bytes)`,
      ratio,
      pass: failed === 0 && ratio >= GOAL,
    };
  },
};
