import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, ConfirmButton, CopyButton, Empty, Loaded, Time } from '../ui/display.js';
import { ProblemSummary, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useLocalPage } from '../ui/paging.js';
import { familyName, WEBHOOK_EVENTS } from '../words.js';

/** One webhook configuration and its delivery history: every delivery with outcome and reason. */
export function WebhookPage() {
  const { client, canAdminister } = useClient();
  const { configId = '' } = useParams();
  const navigate = useNavigate();
  const config = useQuery({
    queryKey: queryKeys.webhook(client.id, configId),
    queryFn: () => api.triggers.getWebhookConfiguration(configId),
  });
  const deliveries = useQuery({
    queryKey: [...queryKeys.webhook(client.id, configId), 'deliveries'],
    queryFn: () => api.triggers.listWebhookDeliveries(configId, { take: '200' }),
    refetchInterval: 5000,
  });
  const page = useLocalPage('deliveries', deliveries.data?.items);
  const changed = [queryKeys.webhooks(client.id)];
  const toggle = useAction(
    (isActive: boolean) => api.triggers.patchWebhookConfiguration(configId, { isActive }),
    changed,
  );
  const remove = useAction(async () => {
    await api.triggers.deleteWebhookConfiguration(configId);
    navigate(`/clients/${client.id}/webhooks`);
  }, changed);
  return (
    <Loaded query={config}>
      {(w) => (
        <Page title={`Webhook for ${w.providerProjectKey}`}>
          <Section title="Configuration">
            <dl className="pairs">
              <div>
                <dt>Listener URL</dt>
                <dd>
                  <code className="mono">{w.listenerUrl}</code>{' '}
                  <CopyButton text={w.listenerUrl} label="Copy listener URL" />
                </dd>
              </div>
              <div>
                <dt>Provider</dt>
                <dd>{familyName(w.provider)}</dd>
              </div>
              <div>
                <dt>Scope</dt>
                <dd className="mono">{w.providerScopePath}</dd>
              </div>
              <div>
                <dt>Repositories</dt>
                <dd>
                  {w.repoFilters.length
                    ? w.repoFilters
                        .map(
                          (f) =>
                            `${f.displayName ?? f.repositoryName ?? f.canonicalSourceRef.value}${f.targetBranchPatterns.length ? ` → ${f.targetBranchPatterns.join(', ')}` : ''}`,
                        )
                        .join('; ')
                    : 'every repository of the project'}
                </dd>
              </div>
              <div>
                <dt>Events</dt>
                <dd>{w.enabledEvents.map((e) => WEBHOOK_EVENTS[e]).join(', ')}</dd>
              </div>
              <div>
                <dt>State</dt>
                <dd>
                  <Badge value={w.isActive ? 'active' : 'inactive'} />
                </dd>
              </div>
            </dl>
            <p className="hint">The secret was shown once when the webhook was created; Margin cannot show it again.</p>
            {canAdminister && (
              <div className="form-actions">
                <button type="button" onClick={() => void toggle.run(!w.isActive)} disabled={toggle.pending}>
                  {w.isActive ? 'Deactivate' : 'Activate'}
                </button>
                <ConfirmButton label="Delete webhook" confirmLabel="Delete now" onConfirm={() => void remove.run()} />
              </div>
            )}
            <ProblemSummary problem={toggle.problem ?? remove.problem} />
          </Section>
          <Section title="Deliveries">
            <Loaded query={deliveries}>
              {(data) =>
                data.items.length === 0 ? (
                  <Empty>No deliveries yet. The newest 200 are shown, newest first.</Empty>
                ) : (
                  <>
                    <table>
                      <caption className="sr-only">Webhook deliveries</caption>
                      <thead>
                        <tr>
                          <th scope="col">Received</th>
                          <th scope="col">Event</th>
                          <th scope="col">Outcome</th>
                          <th scope="col">Pull request</th>
                          <th scope="col">Actions and reason</th>
                        </tr>
                      </thead>
                      <tbody>
                        {page.items.map((d) => (
                          <tr key={d.id}>
                            <td>
                              <Time at={d.receivedAt} />
                            </td>
                            <td className="mono small">{d.eventType ?? '—'}</td>
                            <td>
                              <Badge value={d.outcome} /> <span className="muted">HTTP {d.httpStatus}</span>
                            </td>
                            <td>
                              {d.pullRequestId ? `#${d.pullRequestId}` : '—'}
                              {d.sourceBranch && (
                                <div className="muted small mono">
                                  {d.sourceBranch} → {d.targetBranch}
                                </div>
                              )}
                            </td>
                            <td>
                              {d.actions.length > 0 && <div>{d.actions.join(', ')}</div>}
                              {d.failureReason && <div className="reason">{d.failureReason}</div>}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                    {page.pager('Deliveries')}
                  </>
                )
              }
            </Loaded>
          </Section>
        </Page>
      )}
    </Loaded>
  );
}
