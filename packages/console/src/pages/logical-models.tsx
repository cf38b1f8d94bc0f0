import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, ConfirmButton, Empty, Loaded } from '../ui/display.js';
import { Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useLocalPage } from '../ui/paging.js';
import { PURPOSES, type Purpose } from '../words.js';

type Catalog = Schemas['ClientLogicalModels'];

/** Logical model names and the purpose map; a purpose nothing maps to is flagged. */
export function LogicalModelsPage() {
  const { client } = useClient();
  const catalog = useQuery({
    queryKey: queryKeys.logicalModels(client.id),
    queryFn: () => api.ai.listClientLogicalModels(client.id),
  });
  const connections = useQuery({
    queryKey: [...queryKeys.ai(client.id), { limit: 200 }],
    queryFn: () => api.ai.listAiConnections(client.id, { limit: 200 }),
  });
  return (
    <Page title="Models and purposes">
      <Loaded query={catalog}>
        {(data) => (
          <>
            <PurposeMap catalog={data} />
            <Names catalog={data} connections={connections.data?.items ?? []} />
          </>
        )}
      </Loaded>
      <Loaded query={connections}>{(data) => <CreateName connections={data.items} />}</Loaded>
    </Page>
  );
}

function PurposeMap({ catalog }: { catalog: Catalog }) {
  const { client, canAdminister } = useClient();
  const set = useAction(
    async (purpose: Purpose, name: string) => {
      if (name) await api.ai.putClientPurpose(client.id, purpose, { logicalModelName: name });
      else await api.ai.deleteClientPurpose(client.id, purpose);
    },
    [queryKeys.logicalModels(client.id)],
  );
  const unmapped = catalog.purposes.filter((p) => !p.logicalModelName);
  return (
    <Section title="Purpose map">
      {unmapped.length > 0 && (
        <p className="warn-text" role="note">
          {unmapped.length} of {catalog.purposes.length} purposes are unmapped. Unmapped purposes fall back to the
          connections' purpose bindings, then to <code>reviewDefault</code>; an unmapped <code>reviewDefault</code> with
          no binding fails reviews.
        </p>
      )}
      <table>
        <caption className="sr-only">Which logical model serves each purpose</caption>
        <thead>
          <tr>
            <th scope="col">Purpose</th>
            <th scope="col">Needs</th>
            <th scope="col">Logical model</th>
          </tr>
        </thead>
        <tbody>
          {catalog.purposes.map((p) => {
            const fits = catalog.items.filter((m) => m.capability === p.requiredCapability);
            return (
              <tr key={p.purpose} className={p.logicalModelName ? '' : 'flagged'}>
                <th scope="row">
                  <span className="mono">{p.purpose}</span>{' '}
                  {!p.logicalModelName && <Badge value="warn" label="unmapped" />}
                  <div className="muted small">{PURPOSES[p.purpose]}</div>
                </th>
                <td>{p.requiredCapability}</td>
                <td>
                  {canAdminister ? (
                    <SelectField
                      label={`Logical model for ${p.purpose}`}
                      name={`purpose-${p.purpose}`}
                      value={p.logicalModelName ?? ''}
                      onChange={(name) => void set.run(p.purpose, name)}
                      placeholder="Unmapped"
                      options={fits.map((m) => m.name)}
                    />
                  ) : (
                    (p.logicalModelName ?? '—')
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {set.pending && (
        <p role="status" className="waiting">
          Saving…
        </p>
      )}
      <ProblemSummary problem={set.problem} />
    </Section>
  );
}

function Names({ catalog, connections }: { catalog: Catalog; connections: Schemas['AiConnection'][] }) {
  const { client, canAdminister } = useClient();
  const page = useLocalPage('names', catalog.items);
  const remove = useAction(
    (name: string) => api.ai.deleteClientLogicalModel(client.id, name),
    [queryKeys.logicalModels(client.id)],
  );
  const modelName = (connectionId: string, modelId: string) => {
    const connection = connections.find((c) => c.id === connectionId);
    const model = connection?.configuredModels.find((m) => m.id === modelId);
    return connection && model ? `${model.remoteModelId} on ${connection.displayName}` : modelId;
  };
  return (
    <Section title="Logical models">
      <ProblemSummary problem={remove.problem} />
      {catalog.items.length === 0 ? (
        <Empty>No logical models yet. Name a model below, then map purposes to it.</Empty>
      ) : (
        <>
          <table>
            <caption className="sr-only">Logical models</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Capability</th>
                <th scope="col">Model</th>
                <th scope="col">Reasoning</th>
                <th scope="col">Protocol</th>
                <th scope="col">From</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((m) => (
                <tr key={`${m.scope}-${m.name}`}>
                  <td className="mono">{m.name}</td>
                  <td>{m.capability}</td>
                  <td>{modelName(m.connectionId, m.configuredModelId)}</td>
                  <td>{m.reasoningEffort}</td>
                  <td>{m.protocolMode}</td>
                  <td>
                    {m.scope === 'client' ? 'this client' : 'tenant catalog'}
                    {m.shadowsTenantEntry ? ' (overrides the tenant entry)' : ''}
                  </td>
                  <td>
                    {canAdminister && m.scope === 'client' && (
                      <ConfirmButton
                        label={`Delete ${m.name}`}
                        confirmLabel="Delete now"
                        onConfirm={() => void remove.run(m.name)}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {page.pager('Logical models')}
        </>
      )}
    </Section>
  );
}

function CreateName({ connections }: { connections: Schemas['AiConnection'][] }) {
  const { client, canAdminister } = useClient();
  const [name, setName] = useState('');
  const [connectionId, setConnectionId] = useState('');
  const [configuredModelId, setModelId] = useState('');
  const [reasoningEffort, setEffort] = useState('medium');
  const connection = connections.find((c) => c.id === connectionId);
  const model = connection?.configuredModels.find((m) => m.id === configuredModelId);
  const create = useAction(async () => {
    await api.ai.createClientLogicalModel(client.id, {
      name,
      capability: model?.operationKinds.includes('chat') ? 'chat' : 'embedding',
      connectionId,
      configuredModelId,
      reasoningEffort: reasoningEffort as 'medium',
      protocolMode: 'auto',
    });
    setName('');
  }, [queryKeys.logicalModels(client.id)]);
  if (!canAdminister) return null;
  return (
    <Section title="Name a model">
      {connections.length === 0 ? (
        <Empty>Create an AI connection first.</Empty>
      ) : (
        <Form action={create} submitLabel="Create logical model" pendingLabel="Creating…" label="Name a model">
          <div className="row">
            <TextField
              label="Name"
              name="name"
              value={name}
              onChange={setName}
              required
              maxLength={100}
              placeholder="review-main"
              pattern="[A-Za-z0-9][A-Za-z0-9._:\-]*"
              hint="Letters, digits and . _ : -, starting with a letter or digit."
            />
            <SelectField
              label="Connection"
              name="connectionId"
              value={connectionId}
              onChange={(v) => {
                setConnectionId(v);
                setModelId('');
              }}
              required
              placeholder="Choose a connection…"
              options={connections.map((c) => ({
                value: c.id,
                label: `${c.displayName}${c.isActive ? '' : ' (inactive)'}`,
              }))}
            />
            <SelectField
              label="Model"
              name="configuredModelId"
              value={configuredModelId}
              onChange={setModelId}
              required
              placeholder="Choose a model…"
              options={(connection?.configuredModels ?? []).map((m) => ({
                value: m.id,
                label: `${m.remoteModelId} (${m.operationKinds.join(', ')})`,
              }))}
            />
            <SelectField
              label="Reasoning effort"
              name="reasoningEffort"
              value={reasoningEffort}
              onChange={setEffort}
              options={['none', 'low', 'medium', 'high']}
            />
          </div>
        </Form>
      )}
    </Section>
  );
}
