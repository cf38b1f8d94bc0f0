import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, ConfirmButton, formatUsd, Loaded, Time } from '../ui/display.js';
import { Form, ProblemSummary, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { aiKindName, PURPOSES, type Purpose } from '../words.js';
import {
  AddModel,
  type Bindings as BindingChoices,
  boundPurposes,
  CheckResult,
  keepBound,
  ModelList,
  PurposeTable,
} from './new-ai-connection.js';

type Connection = Schemas['AiConnection'];
type ModelInput = Schemas['ConfiguredModelInput'];
interface SavedNote {
  text: string;
  /** The save took verification (and the activation) away. */
  reset: boolean;
}

/** What saving did to the connection, in words: a change resets verification and deactivates it. */
function savedNote(before: Connection, after: Connection): SavedNote {
  const deactivated = before.isActive && !after.isActive;
  const reset = before.verification.status !== 'neverVerified' && after.verification.status === 'neverVerified';
  if (deactivated) {
    return {
      reset: true,
      text: 'Saved. The change reset verification and deactivated the connection: reviews do not use it until you verify it and activate it again.',
    };
  }
  if (reset) {
    return { reset: true, text: 'Saved. The change reset verification: verify the connection before activating it.' };
  }
  return { reset: false, text: 'Saved.' };
}

/** One AI connection: verify (the failure in words), activate or deactivate, its models and bindings. */
export function AiConnectionPage() {
  const { client, canAdminister } = useClient();
  const { connectionId = '' } = useParams();
  const navigate = useNavigate();
  const connection = useQuery({
    queryKey: queryKeys.aiConnection(client.id, connectionId),
    queryFn: () => api.ai.getAiConnection(client.id, connectionId),
  });
  // Editing the models is in the URL (`?edit=models`) like every other state a page can be in.
  const [params, setParams] = useSearchParams();
  const editing = canAdminister && params.get('edit') === 'models';
  const setEditing = (on: boolean) =>
    setParams((p) => {
      const copy = new URLSearchParams(p);
      if (on) copy.set('edit', 'models');
      else copy.delete('edit');
      return copy;
    });
  const [saved, setSaved] = useState<SavedNote>();
  // Keyboard users keep their place: the form's heading when it opens, the edit button when it closes.
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(editing);
  useEffect(() => {
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const changed = [queryKeys.ai(client.id)];
  const verify = useAction(async () => {
    setSaved(undefined);
    await api.ai.verifyAiConnection(client.id, connectionId);
  }, changed);
  const setActive = useAction(
    (on: boolean) => (on ? api.ai.activateAiConnection : api.ai.deactivateAiConnection)(client.id, connectionId),
    changed,
  );
  const remove = useAction(async () => {
    await api.ai.deleteAiConnection(client.id, connectionId);
    navigate(`/clients/${client.id}/ai`);
  }, changed);
  return (
    <Loaded query={connection}>
      {(c) => (
        <Page title={c.displayName}>
          <Section title="Connection">
            <dl className="pairs">
              <div>
                <dt>Kind</dt>
                <dd>{aiKindName(c.providerKind)}</dd>
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
            {saved && (
              <p role="status" className={saved.reset ? 'warn-text' : 'ok-text'}>
                {saved.text}
              </p>
            )}
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
          {editing ? (
            <EditModels
              connection={c}
              onCancel={() => setEditing(false)}
              onSaved={(updated) => {
                setSaved(savedNote(c, updated));
                setEditing(false);
              }}
            />
          ) : (
            <>
              <Models
                models={c.configuredModels}
                actions={
                  canAdminister && (
                    <button type="button" ref={editButton} onClick={() => setEditing(true)}>
                      Edit models and purposes
                    </button>
                  )
                }
              />
              <Bindings bindings={c.purposeBindings} models={c.configuredModels} />
            </>
          )}
          <p>
            <Link to={`/clients/${client.id}/models`}>Logical models and the purpose map</Link> decide which model each
            purpose uses.
          </p>
        </Page>
      )}
    </Loaded>
  );
}

function Models({ models, actions }: { models: Schemas['ConfiguredModel'][]; actions?: ReactNode }) {
  return (
    <Section title="Configured models" actions={actions}>
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

/**
 * The configured models and purpose bindings, changed in place and saved with one PATCH. Models keep
 * their id (and prices, protocols, traits); a binding kept on the same model keeps its protocol and state.
 */
function EditModels({
  connection,
  onSaved,
  onCancel,
}: {
  connection: Connection;
  onSaved(updated: Connection): void;
  onCancel(): void;
}) {
  const { client } = useClient();
  const [models, setModels] = useState<ModelInput[]>(() => connection.configuredModels.map((m) => ({ ...m })));
  const [bindings, setBindings] = useState<BindingChoices>(() =>
    Object.fromEntries(connection.purposeBindings.map((b) => [b.purpose, b.remoteModelId])),
  );
  const changeModels = (list: ModelInput[]) => {
    setModels(list);
    setBindings((b) => keepBound(b, list));
  };
  const start = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const heading = start.current?.querySelector('h2');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus();
  }, []);
  const save = useAction(async () => {
    const updated = await api.ai.patchAiConnection(client.id, connection.id, {
      configuredModels: models,
      purposeBindings: boundPurposes(bindings).map((purpose: Purpose) => {
        const remoteModelId = bindings[purpose] ?? '';
        const before = connection.purposeBindings.find((b) => b.purpose === purpose);
        return before && before.remoteModelId.toLowerCase() === remoteModelId.toLowerCase()
          ? { purpose, remoteModelId, protocolMode: before.protocolMode, isEnabled: before.isEnabled }
          : { purpose, remoteModelId };
      }),
    });
    onSaved(updated);
  }, [queryKeys.ai(client.id)]);
  return (
    <div ref={start}>
      <Form
        action={save}
        submitLabel="Save models and purposes"
        pendingLabel="Saving…"
        label="Edit models and purposes"
        extraButtons={
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        }
      >
        <Section title="Configured models">
          <p className="hint">
            Saving a change resets verification and deactivates the connection until it is verified and activated again.
          </p>
          <ModelList models={models} onChange={changeModels} />
          <AddModel onAdd={(m) => changeModels([...models, m])} />
        </Section>
        <Section title="Purpose bindings">
          <PurposeTable models={models} bindings={bindings} onChange={setBindings} />
        </Section>
      </Form>
    </div>
  );
}
