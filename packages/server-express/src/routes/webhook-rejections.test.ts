import { createManualClock } from '@margin/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  eventually,
  startTestHost,
  type TestApi,
  type TestHost,
} from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import { delivery, FACTS, post, scopedClient } from '../testing/triggers-test-support.js';

const PUBLIC_BASE = 'https://margin.example.com';

/** Anyone can post to a listener URL: unauthenticated writes must not crowd out the real history. */
describe('rejected webhook deliveries', () => {
  const clock = createManualClock('2026-05-01T10:00:00.000Z');
  let fakes: ScmFakes;
  let host: TestHost;
  let admin: TestApi;

  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({
      clock,
      providers: fakes.providers,
      env: { WORKER_ENABLED: 'false', MARGIN_PUBLIC_BASE_URL: PUBLIC_BASE },
    });
    admin = await host.admin();
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  it('are recorded up to 20 an hour per configuration, counted past that, and never push real deliveries out', async () => {
    const scoped = await scopedClient(admin, fakes, 'github', 'Flooded client');
    const created = await admin.post('/admin/webhook-configurations', {
      clientId: scoped.clientId,
      provider: 'gitHostA',
      organizationScopeId: scoped.scopeId,
      providerProjectKey: 'acme',
      enabledEvents: ['pullRequestCreated', 'pullRequestUpdated'],
    });
    expect(created.status).toBe(201);
    const url = created.body.listenerUrl.replace(PUBLIC_BASE, host.url);
    const history = async () =>
      (await admin.get(`/admin/webhook-configurations/${created.body.id}/deliveries?take=200`)).body.items as Array<
        Record<string, any>
      >;

    const real = await post(url, delivery('github', FACTS.github.opened, created.body.generatedSecret));
    expect(real.status).toBe(200);
    // A flood of forged deliveries: each is refused, only the first 20 of the hour are stored.
    for (let i = 0; i < 60; i++) {
      const forged = await post(url, delivery('github', FACTS.github.updated, 'not-the-secret'));
      expect(forged.status).toBe(401);
    }
    const flooded = await history();
    expect(flooded.filter((d) => d.outcome === 'rejected')).toHaveLength(20);
    expect(flooded.filter((d) => d.outcome === 'accepted')).toHaveLength(1);

    // An hour later the next rejection is stored again, and says how many went unrecorded.
    clock.advance(3600_000);
    admin = await host.login(ADMIN_USERNAME, ADMIN_PASSWORD); // the old access token has expired
    expect((await post(url, delivery('github', FACTS.github.updated, 'still-not-it'))).status).toBe(401);
    const later = await eventually(async () => {
      const rows = await history();
      return rows.length === 22 && rows;
    });
    expect(later[0]).toMatchObject({
      outcome: 'rejected',
      httpStatus: 401,
      actions: ['40 more rejected deliveries were not recorded (at most 20 are recorded an hour)'],
    });
  });
});
