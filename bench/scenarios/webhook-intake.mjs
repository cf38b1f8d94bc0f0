import { createHmac, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { openKnexStorage } from '@margin/storage-knex';
import autocannon from 'autocannon';
import { startServer } from '../lib/processes.mjs';

const GOAL = 2000;
const SECONDS = Number(process.env.MARGIN_BENCH_SECONDS ?? 8);
const fixture = new URL(
  '../../packages/providers/src/scm/github/__fixtures__/webhook-pull-request-opened.json',
  import.meta.url,
);

/**
 * Webhook intake on SQLite, absolute: signed GitHub `pull_request` deliveries, each with its own
 * delivery id, posted by autocannon to the gateway's receiver path; the figure is the number of
 * deliveries durably recorded (rows read back from the database after the run) per second.
 */
export default {
  name: 'webhook-intake',
  goal: `≥ ${GOAL} durably recorded webhook deliveries/s on SQLite`,
  async run() {
    const server = await startServer(new URL('../servers/margin-webhook-intake.mjs', import.meta.url).pathname);
    try {
      const [listenerPath, secret, databaseFile] = server.extra;
      const body = readFileSync(fixture, 'utf8');
      const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      const request = () => ({
        method: 'POST',
        path: listenerPath,
        body,
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'pull_request',
          'x-github-delivery': randomUUID(),
          'x-hub-signature-256': signature,
        },
      });
      const run = (duration) =>
        autocannon({
          url: server.url,
          connections: 32,
          pipelining: 1,
          duration,
          requests: [{ setupRequest: (req) => ({ ...req, ...request() }) }],
        });
      await run(1); // warm-up, counted out below
      const storage = await openKnexStorage({ url: `sqlite:${databaseFile}`, migrate: false });
      const count = async () =>
        Number((await storage.knex('webhook_deliveries').where({ outcome: 'accepted' }).count({ n: '*' }))[0].n);
      const before = await count();
      const result = await run(SECONDS);
      const failed = result.non2xx + result.errors;
      const recorded = (await count()) - before;
      await storage.close();
      const perSecond = recorded / SECONDS;
      return {
        baseline: `goal ${GOAL} deliveries/s (absolute)`,
        measured: `${perSecond.toFixed(0)} deliveries/s recorded (${recorded} rows in ${SECONDS} s; ${result.requests.total} answered, ${failed} failed; p99 ${result.latency.p99} ms, body ${Buffer.byteLength(body)} bytes)`,
        ratio: perSecond / GOAL,
        pass: failed === 0 && perSecond >= GOAL,
      };
    } finally {
      await server.stop();
    }
  },
};
