import type { Schemas } from '@margin/sdk-client';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, Empty, Loaded, ShownOnce } from '../ui/display.js';
import { Form, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { familyName, WEBHOOK_EVENTS } from '../words.js';
import { useClientScopes } from './discovery.js';
import { TriggerFields, useTriggerFields } from './trigger-fields.js';

/** The client's webhook configurations, and a form that answers the listener URL and secret once. */
export function WebhooksPage() {
  const { client, canAdminister } = useClient();
  const configs = useCursorList('webhooks', queryKeys.webhooks(client.id), (q) =>
    api.triggers.listWebhookConfigurations({ ...q, clientId: client.id }),
  );
  const [created, setCreated] = useState<Schemas['CreatedWebhookConfiguration']>();
  return (
    <Page title="Webhooks">
      {created && (
        <section className="section" aria-label="New webhook">
          <h2>Webhook created</h2>
          <p>
            Give the provider this listener URL and secret. Listener URL:{' '}
            <code className="mono" data-testid="listener-url">
              {created.listenerUrl}
            </code>
          </p>
          <ShownOnce label="Webhook secret" secret={created.generatedSecret} onDone={() => setCreated(undefined)} />
        </section>
      )}
      <Section title="Configurations">
        <Loaded query={configs.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No webhooks yet.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Webhook configurations</caption>
                  <thead>
                    <tr>
                      <th scope="col">Project</th>
                      <th scope="col">Provider</th>
                      <th scope="col">Repositories</th>
                      <th scope="col">Events</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((w) => (
                      <tr key={w.id}>
                        <td>
                          <Link to={w.id}>{w.providerProjectKey}</Link>
                          <div className="muted small mono">{w.providerScopePath}</div>
                        </td>
                        <td>{familyName(w.provider)}</td>
                        <td>
                          {w.repoFilters.length
                            ? w.repoFilters.map((f) => f.displayName ?? f.repositoryName).join(', ')
                            : 'all'}
                        </td>
                        <td>{w.enabledEvents.map((e) => WEBHOOK_EVENTS[e]).join(', ')}</td>
                        <td>
                          <Badge value={w.isActive ? 'active' : 'inactive'} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {configs.pager('Webhooks')}
              </>
            )
          }
        </Loaded>
      </Section>
      {canAdminister && <CreateWebhook onCreated={setCreated} />}
    </Page>
  );
}

function CreateWebhook({ onCreated }: { onCreated(c: Schemas['CreatedWebhookConfiguration']): void }) {
  const { client } = useClient();
  const scopes = useClientScopes(client.id);
  const fields = useTriggerFields();
  const [events, setEvents] = useState<Array<keyof typeof WEBHOOK_EVENTS>>([
    'pullRequestCreated',
    'pullRequestUpdated',
  ]);
  const action = useAction(async () => {
    const provider = scopes.data?.find((s) => s.scope.id === fields.state.scopeId)?.connection.providerFamily;
    onCreated(
      await api.triggers.createWebhookConfiguration({
        clientId: client.id,
        provider: provider ?? 'gitHostA',
        enabledEvents: events,
        ...fields.body(),
      }),
    );
  }, [queryKeys.webhooks(client.id)]);
  return (
    <Section title="Add a webhook">
      <Loaded query={scopes}>
        {(list) => (
          <Form action={action} submitLabel="Create webhook" pendingLabel="Creating…" label="Add a webhook">
            <TriggerFields clientId={client.id} scopes={list} fields={fields} />
            <fieldset className="fieldset">
              <legend>Events that start a review</legend>
              <ul className="checks">
                {(Object.keys(WEBHOOK_EVENTS) as Array<keyof typeof WEBHOOK_EVENTS>).map((e) => (
                  <li key={e}>
                    <label>
                      <input
                        type="checkbox"
                        name="enabledEvents"
                        checked={events.includes(e)}
                        onChange={(ev) => setEvents((l) => (ev.target.checked ? [...l, e] : l.filter((x) => x !== e)))}
                      />{' '}
                      {WEBHOOK_EVENTS[e]}
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          </Form>
        )}
      </Loaded>
    </Section>
  );
}
