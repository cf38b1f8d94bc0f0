import { useState } from 'react';
import { api } from '../api/client.js';
import { useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, Empty, Loaded, Time } from '../ui/display.js';
import { Form, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { useClientScopes } from './discovery.js';
import { TriggerFields, useTriggerFields } from './trigger-fields.js';

/** Scheduled crawling (the crawl-configs capability): configurations and their last crawl. */
export function CrawlsPage() {
  const { client, canAdminister } = useClient();
  const { me } = useMe();
  const licensed = me.capabilities.find((c) => c.capability === 'crawl-configs')?.isAvailable ?? false;
  const configs = useCursorList('crawls', [...queryKeys.crawls(client.id), { licensed }], (q) =>
    licensed
      ? api.triggers.listCrawlConfigurations({ ...q, clientId: client.id })
      : Promise.resolve({ items: [], nextCursor: null }),
  );
  return (
    <Page title="Crawls">
      {!licensed && (
        <p className="warn-text" role="note">
          Scheduled crawling needs the Commercial edition (capability <code>crawl-configs</code>). Stored crawl
          configurations stay idle until it is available; reviews still come from webhooks and the API.
        </p>
      )}
      <Section title="Configurations">
        <Loaded query={configs.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No crawl configurations.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Crawl configurations</caption>
                  <thead>
                    <tr>
                      <th scope="col">Project</th>
                      <th scope="col">Every</th>
                      <th scope="col">Last crawl</th>
                      <th scope="col">Found / in scope / queued</th>
                      <th scope="col">Next</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((c) => (
                      <tr key={c.id}>
                        <td>
                          {c.providerProjectKey}
                          <div className="muted small mono">{c.providerScopePath}</div>
                        </td>
                        <td>{c.crawlIntervalSeconds} s</td>
                        <td>
                          {c.lastCrawlOutcome ? <Badge value={c.lastCrawlOutcome} /> : '—'}{' '}
                          <Time at={c.lastCrawledAt} />
                          {c.lastCrawlError && <div className="reason">{c.lastCrawlError}</div>}
                        </td>
                        <td>
                          {c.lastCrawlCounts
                            ? `${c.lastCrawlCounts.pullRequestsSeen} / ${c.lastCrawlCounts.inScope} / ${c.lastCrawlCounts.queued}`
                            : '—'}
                        </td>
                        <td>
                          <Time at={c.nextCrawlAt} />
                        </td>
                        <td>
                          <Badge value={c.isActive ? 'active' : 'inactive'} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {configs.pager('Crawl configurations')}
              </>
            )
          }
        </Loaded>
      </Section>
      {canAdminister && licensed && <CreateCrawl />}
    </Page>
  );
}

function CreateCrawl() {
  const { client } = useClient();
  const scopes = useClientScopes(client.id);
  const fields = useTriggerFields();
  const [interval, setInterval] = useState('300');
  const action = useAction(async () => {
    await api.triggers.createCrawlConfiguration({
      clientId: client.id,
      crawlIntervalSeconds: Number(interval),
      ...fields.body(),
    });
  }, [queryKeys.crawls(client.id)]);
  return (
    <Section title="Add a crawl">
      <Loaded query={scopes}>
        {(list) => (
          <Form action={action} submitLabel="Create crawl" pendingLabel="Creating…" label="Add a crawl">
            <TriggerFields clientId={client.id} scopes={list} fields={fields} purpose="crawl" />
            <TextField
              label="Interval (seconds)"
              name="crawlIntervalSeconds"
              type="number"
              min={10}
              max={86400}
              step={1}
              value={interval}
              onChange={setInterval}
              required
            />
          </Form>
        )}
      </Loaded>
    </Section>
  );
}
