import type { Schemas } from '@margin/sdk-client';
import { Link } from 'react-router';
import { fetchHealth } from '../api/health.js';
import { useMe } from '../api/me.js';
import { api } from '../api/session.js';
import { Badge, Empty, Loaded } from '../ui/display.js';
import { Page, Section } from '../ui/page.js';
import { useResource } from '../ui/use-resource.js';
import { CAPABILITIES, JOB_STATUSES } from '../words.js';
import { JobTable } from './job-table.js';

// The API lists jobs per client; the overview looks at this many clients' recent and queued jobs.
const CLIENTS_LOOKED_AT = 20;

interface Activity {
  jobs: Schemas['JobSummary'][];
  queued: number;
  running: number;
  clients: Schemas['Client'][];
  moreClients: boolean;
}

async function loadActivity(): Promise<Activity> {
  const clients = await api.clients.list({ limit: CLIENTS_LOOKED_AT });
  const perClient = await Promise.all(
    clients.items.map(async (c) => {
      const [recent, queued, running] = await Promise.all([
        api.reviewing.listJobs(c.id, { limit: 10 }),
        api.reviewing.listJobs(c.id, { status: 'queued', limit: 200 }),
        api.reviewing.listJobs(c.id, { status: 'running', limit: 200 }),
      ]);
      return { recent: recent.items, queued: queued.items.length, running: running.items.length };
    }),
  );
  return {
    jobs: perClient
      .flatMap((p) => p.recent)
      .sort((a, b) => b.submittedAt.localeCompare(a.submittedAt))
      .slice(0, 15),
    queued: perClient.reduce((n, p) => n + p.queued, 0),
    running: perClient.reduce((n, p) => n + p.running, 0),
    clients: clients.items,
    moreClients: clients.nextCursor !== null,
  };
}

/** Edition and capabilities, health, queue depth and the latest reviews, refreshed every few seconds. */
export function OverviewPage() {
  const { me } = useMe();
  const health = useResource(fetchHealth, [], { pollMs: 10_000 });
  const activity = useResource(loadActivity, [], { pollMs: 5_000 });
  return (
    <Page title="Overview">
      <div className="cards">
        <section className="card" aria-labelledby="edition-h">
          <h2 id="edition-h">Edition</h2>
          <p className="big">{me.edition}</p>
          <ul className="plain">
            {me.capabilities.map((c) => (
              <li key={c.capability}>
                <Badge value={c.isAvailable ? 'ok' : 'inactive'} label={c.isAvailable ? 'on' : 'off'} />{' '}
                {CAPABILITIES[c.capability]?.title ?? c.capability}
              </li>
            ))}
          </ul>
          {me.globalRole === 'platformAdmin' && <Link to="/admin/licensing">Licensing</Link>}
        </section>
        <section className="card" aria-labelledby="health-h">
          <h2 id="health-h">Health</h2>
          <Loaded resource={health}>
            {(h) => (
              <>
                <p className="big">
                  <Badge value={h.status} />
                </p>
                <dl className="pairs">
                  {Object.entries(h.checks).map(([name, check]) => (
                    <div key={name}>
                      <dt>{name}</dt>
                      <dd>
                        <Badge value={check.status} /> {check.detail}
                      </dd>
                    </div>
                  ))}
                </dl>
              </>
            )}
          </Loaded>
        </section>
        <section className="card" aria-labelledby="queue-h">
          <h2 id="queue-h">Queue</h2>
          <Loaded resource={activity}>
            {(a) => (
              <dl className="pairs">
                <div>
                  <dt>Queued</dt>
                  <dd className="big">{a.queued}</dd>
                </div>
                <div>
                  <dt>Running</dt>
                  <dd className="big">{a.running}</dd>
                </div>
                {a.moreClients && <p className="hint">Counted over the first {CLIENTS_LOOKED_AT} clients.</p>}
              </dl>
            )}
          </Loaded>
        </section>
      </div>
      <Section title="Recent reviews">
        <Loaded resource={activity}>
          {(a) =>
            a.jobs.length === 0 ? (
              <Empty>
                No reviews yet.{' '}
                {a.clients.length === 0 ? (
                  <Link to="/clients">Create a client</Link>
                ) : (
                  'Set up a webhook or submit one.'
                )}
              </Empty>
            ) : (
              <JobTable jobs={a.jobs} clients={a.clients} />
            )
          }
        </Loaded>
        <p className="hint">Statuses: {JOB_STATUSES.join(', ')}.</p>
      </Section>
    </Page>
  );
}
