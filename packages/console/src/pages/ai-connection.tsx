import type { Schemas } from '@margin/sdk-client';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/session.js';
import { useClient } from '../app/client-layout.js';
import { Badge, ConfirmButton, formatUsd, Loaded, Time } from '../ui/display.js';
import { ProblemSummary, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useResource } from '../ui/use-resource.js';
import { AI_KINDS, PURPOSES } from '../words.js';
import { CheckResult } from './new-ai-connection.js';

/** One AI connection: verify (the failure in words), activate or deactivate, its models and bindings. */
export function AiConnectionPage() {
  const { client, canAdminister } = useClient();
  const { connectionId = '' } = useParams();
  const navigate = useNavigate();
  const connection = useResource(() => api.ai.connections.get(client.id, connectionId), [client.id, connectionId]);
  const verify = useAction(async () => {
    await api.ai.connections.verify(client.id, connectionId);
    connection.reload();
  });
  const setActive = useAction(async (on: boolean) => {
    await (on ? api.ai.connections.activate : api.ai.connections.deactivate)(client.id, connectionId);
    connection.reload();
  });
  const remove = useAction(async () => {
    await api.ai.connections.delete(client.id, connectionId);
    navigate(`/clients/${client.id}/ai`);
  });
  return (
    <Loaded resource={connection}>
      {(c) => (
        <Page title={c.displayName}>
          <Section title="Connection">
            <dl className="pairs">
              <div>
                <dt>Kind</dt>
                <dd>{AI_KINDS[c.providerKind]}</dd>
              </div>
              <div>
                <dt>Base URL</dt>
                <dd className="mono">{c.baseUrl || 'public endpoint'}</dd>
              </div>
              <div>
                <dt>Authentication</dt>
                <dd>
                  {c.auth.mode === 'apiKey'
                    ? c.auth.hasApiKey
                      ? 'API key (stored)'
                      : 'no API key'
                    : 'managed identity'}
                </dd>
              </div>
              <div>
                <dt>State</dt>
                <dd>
                  <Badge value={c.isActive ? 'active' : 'inactive'} />
                </dd>
              </div>
              <div>
                <dt>Last checked</dt>
                <dd>
                  <Time at={c.verification.checkedAt} />
                </dd>
              </div>
            </dl>
            {c.verification.status === 'neverVerified' ? (
              <p className="muted">Not verified since its last change. Verify before activating.</p>
            ) : (
              <CheckResult result={c.verification} what="Verification" />
            )}
            {canAdminister && (
              <div className="form-actions">
                <button type="button" className="primary" onClick={() => void verify.run()} disabled={verify.pending}>
                  {verify.pending ? 'Verifying…' : 'Verify'}
                </button>
                {c.isActive ? (
                  <button type="button" onClick={() => void setActive.run(false)} disabled={setActive.pending}>
                    Deactivate
                  </button>
                ) : (
                  <button
                    type="button"
                    onClick={() => void setActive.run(true)}
                    disabled={setActive.pending || c.verification.status !== 'verified'}
                    title={c.verification.status !== 'verified' ? 'Verify successfully first' : undefined}
                  >
                    Activate
                  </button>
                )}
                <ConfirmButton
                  label="Delete connection"
                  confirmLabel="Delete now"
                  onConfirm={() => void remove.run()}
                />
              </div>
            )}
            {verify.pending && (
              <p role="status" className="waiting">
                <span className="spinner" aria-hidden="true" /> Asking every configured model…
              </p>
            )}
            <ProblemSummary problem={verify.problem ?? setActive.problem ?? remove.problem} />
          </Section>
          <Models models={c.configuredModels} />
          <Bindings bindings={c.purposeBindings} models={c.configuredModels} />
          <p>
            <Link to={`/clients/${client.id}/models`}>Logical models and the purpose map</Link> decide which model each
            purpose uses.
          </p>
        </Page>
      )}
    </Loaded>
  );
}

function Models({ models }: { models: Schemas['ConfiguredModel'][] }) {
  return (
    <Section title="Configured models">
      <table>
        <caption className="sr-only">Configured models</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Kinds</th>
            <th scope="col">Protocols</th>
            <th scope="col">Context</th>
            <th scope="col">Price per 1M in / out</th>
            <th scope="col">Source</th>
          </tr>
        </thead>
        <tbody>
          {models.map((m) => (
            <tr key={m.id}>
              <td>
                <span className="mono">{m.remoteModelId}</span>
                {m.displayName !== m.remoteModelId && <div className="muted small">{m.displayName}</div>}
              </td>
              <td>{m.operationKinds.join(', ')}</td>
              <td className="small">{m.supportedProtocolModes.join(', ')}</td>
              <td>
                {m.embeddingDimensions
                  ? `${m.embeddingDimensions} dims`
                  : (m.maxContextTokens?.toLocaleString() ?? '—')}
              </td>
              <td>
                {m.inputCostPer1MUsd !== null ? formatUsd(m.inputCostPer1MUsd) : '—'} /{' '}
                {m.outputCostPer1MUsd !== null ? formatUsd(m.outputCostPer1MUsd) : '—'}
              </td>
              <td>{m.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}

function Bindings({
  bindings,
  models,
}: {
  bindings: Schemas['PurposeBinding'][];
  models: Schemas['ConfiguredModel'][];
}) {
  return (
    <Section title="Purpose bindings">
      <table>
        <caption className="sr-only">Purpose bindings</caption>
        <thead>
          <tr>
            <th scope="col">Purpose</th>
            <th scope="col">Model</th>
            <th scope="col">Protocol</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {bindings.map((b) => (
            <tr key={b.purpose}>
              <td>
                <span className="mono">{b.purpose}</span>
                <div className="muted small">{PURPOSES[b.purpose]}</div>
              </td>
              <td className="mono">
                {models.find((m) => m.id === b.configuredModelId)?.remoteModelId ?? b.remoteModelId}
              </td>
              <td>{b.protocolMode}</td>
              <td>
                <Badge value={b.isEnabled ? 'active' : 'inactive'} label={b.isEnabled ? 'enabled' : 'disabled'} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Section>
  );
}
