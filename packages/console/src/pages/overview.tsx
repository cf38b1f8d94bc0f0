import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { fetchHealth } from '../api/health.js';
import { useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { Badge, Empty, Loaded } from '../ui/display.js';
import { Page, Section } from '../ui/page.js';
import { CAPABILITIES, JOB_STATUSES } from '../words.js';
import { JobTable } from './job-table.js';

// The API lists jobs per client and has no installation-wide count: the overview looks at this many
// clients, and counts at most one page of each status per client.
const CLIENTS_LOOKED_AT = 20;
const COUNTED_PER_CLIENT = 200;

/** Jobs in a status over the clients looked at; `atLeast` when some client has more than one page. */
interface Count {
  jobs: number;
  atLeast: boolean;
}

interface Activity {
  jobs: Schemas['JobSummary'][];
  queued: Count;
  running: Count;
  clients: Schemas['Client'][];
  moreClients: boolean;
}

const sum = (counts: Count[]): Count => ({
  jobs: counts.reduce((n, c) => n + c.jobs, 0),
  atLeast: counts.some((c) => c.atLeast),
});

async function loadActivity(): Promise<Activity> {
  const clients = await api.tenancy.listClients({ limit: CLIENTS_LOOKED_AT });
  const count = async (clientId: string, status: 'queued' | 'running'): Promise<Count> => {
    const page = await api.reviewing.listReviewJobs(clientId, { status, limit: COUNTED_PER_CLIENT });
    return { jobs: page.items.length, atLeast: page.nextCursor !== null };
  };
  const perClient = await Promise.all(
    clients.items.map(async (c) => {
      const [recent, queued, running] = await Promise.all([
        api.reviewing.listReviewJobs(c.id, { limit: 10 }),
        count(c.id, 'queued'),
        count(c.id, 'running'),
      ]);
      return { recent: recent.items, queued, running };
    }),
  );
  return {
    jobs: perClient
      .flatMap((p) => p.recent)
      .sort((a, b) => b.submittedAt.localeCompare(a.submittedAt))
      .slice(0, 15),
    queued: sum(perClient.map((p) => p.queued)),
    running: sum(perClient.map((p) => p.running)),
    clients: clients.items,
    moreClients: clients.nextCursor !== null,
  };
}

/** A count as what it is: "200+" when a client had more than the overview reads. */
const shown = (c: Count) => `${c.jobs}${c.atLeast ? '+' : ''}`;

/** What the queue card counted, said plainly. */
function countedOver(a: Activity): string {
  const clients = a.moreClients
    ? `the first ${a.clients.length} clients only; reviews of the others are not counted`
    : a.clients.length === 1
      ? 'the one client'
      : `all ${a.clients.length} clients`;
  const capped = a.queued.atLeast || a.running.atLeast ? ` At most ${COUNTED_PER_CLIENT} per client and status.` : '';
  return `Counted over ${clients}.${capped}`;
}

/** Edition and capabilities, health, queue depth and the latest reviews, refreshed every few seconds. */
export function OverviewPage() {
  const { me } = useMe();
  const health = useQuery({ queryKey: queryKeys.health, queryFn: fetchHealth, refetchInterval: 10_000 });
  const activity = useQuery({ queryKey: queryKeys.overview, queryFn: loadActivity, refetchInterval: 5_000 });
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
          <Loaded query={health}>
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
          <Loaded query={activity}>
            {(a) => (
              <>
                <dl className="pairs">
                  <div>
                    <dt>Queued</dt>
                    <dd className="big">{shown(a.queued)}</dd>
                  </div>
                  <div>
                    <dt>Running</dt>
                    <dd className="big">{shown(a.running)}</dd>
                  </div>
                </dl>
                {a.clients.length > 0 && <p className="hint">{countedOver(a)}</p>}
              </>
            )}
          </Loaded>
        </section>
      </div>
      <Section title="Recent reviews">
        <Loaded query={activity}>
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
              <>
                <JobTable jobs={a.jobs} clients={a.clients} />
                {a.moreClients && (
                  <p className="hint">
                    From the first {a.clients.length} clients only; each client's page lists all of its reviews.
                  </p>
                )}
              </>
            )
          }
        </Loaded>
        <p className="hint">Statuses: {JOB_STATUSES.join(', ')}.</p>
      </Section>
    </Page>
  );
}
