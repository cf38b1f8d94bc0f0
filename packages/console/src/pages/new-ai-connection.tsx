import type { Schemas } from '@margin/sdk-client';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, Empty } from '../ui/display.js';
import { Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { AI_FAILURES, AI_KINDS, type AiKind, label, PURPOSES, type Purpose } from '../words.js';

type ModelInput = Schemas['ConfiguredModelInput'];
/** Which model (by remote id) serves each bound purpose. */
export type Bindings = Partial<Record<Purpose, string>>;

/** The bound purposes in the order the API's `purposeBindings` gets them (field messages name the index). */
export const boundPurposes = (bindings: Bindings) => (Object.keys(PURPOSES) as Purpose[]).filter((p) => bindings[p]);
const isChat = (m: ModelInput) => !m.operationKinds || m.operationKinds.includes('chat');
const isEmbedding = (m: ModelInput) => m.operationKinds?.includes('embedding') ?? false;

const REGION_PARAM: Partial<Record<AiKind, string>> = { kindCloudB: 'region', kindCloudC: 'project' };

/** Where a new connection is probed, discovered and saved: a client's, or a tenant's own. */
export interface ConnectionOwnerCalls {
  probe(body: Schemas['AiProbeInput']): Promise<Schemas['AiProbeResult']>;
  discover(body: Schemas['AiProbeInput']): Promise<Schemas['AiDiscoveryResult']>;
  create(body: Schemas['CreateAiConnectionInput']): Promise<Schemas['AiConnection']>;
  /** The list the new connection appears in, refreshed once it is saved. */
  listKey: readonly unknown[];
  onCreated(connection: Schemas['AiConnection']): void;
}

/**
 * A new AI connection of a client. Verify and activate follow on the connection's own page.
 */
export function NewAiConnectionPage() {
  const { client } = useClient();
  const navigate = useNavigate();
  return (
    <Page title="New AI connection">
      <NewAiConnectionForm
        owner={{
          probe: (body) => api.ai.probeAiConnection(client.id, body),
          discover: (body) => api.ai.discoverAiModels(client.id, body),
          create: (body) => api.ai.createAiConnection(client.id, body),
          listKey: queryKeys.ai(client.id),
          onCreated: (created) => navigate(`/clients/${client.id}/ai/${created.id}`),
        }}
      />
    </Page>
  );
}

/**
 * The form of a new AI connection, in the order the API recommends: endpoint and key, a probe, the
 * models (discovered or typed in), then which model serves which purpose.
 */
export function NewAiConnectionForm({ owner }: { owner: ConnectionOwnerCalls }) {
  const [displayName, setDisplayName] = useState('');
  const [providerKind, setKind] = useState<AiKind>('kindCompatible');
  const [baseUrl, setBaseUrl] = useState('');
  const [authMode, setAuthMode] = useState<'apiKey' | 'azureIdentity'>('apiKey');
  const [apiKey, setApiKey] = useState('');
  const [param, setParam] = useState('');
  const [models, setModels] = useState<ModelInput[]>([]);
  const [bindings, setBindings] = useState<Bindings>({});
  const [probeResult, setProbeResult] = useState<Schemas['AiProbeResult']>();
  const [discovered, setDiscovered] = useState<Schemas['AiDiscoveryResult']>();

  const endpoint = (): Schemas['AiProbeInput'] => {
    const paramName = REGION_PARAM[providerKind];
    return {
      providerKind,
      ...(baseUrl ? { baseUrl } : {}),
      auth: authMode === 'apiKey' ? { mode: 'apiKey', apiKey } : { mode: 'azureIdentity' },
      ...(paramName && param ? { defaultQueryParams: { [paramName]: param } } : {}),
    };
  };
  const probe = useAction(async () => setProbeResult(await owner.probe(endpoint())));
  const discover = useAction(async () => setDiscovered(await owner.discover(endpoint())));
  const create = useAction(async () => {
    const created = await owner.create({
      displayName,
      ...endpoint(),
      configuredModels: models,
      purposeBindings: boundPurposes(bindings).map((purpose) => ({ purpose, remoteModelId: bindings[purpose] ?? '' })),
    });
    setApiKey(''); // write-only: forgotten once the API has it
    owner.onCreated(created);
  }, [owner.listKey]);

  // A purpose bound to a model that is taken off the list is unbound with it.
  const changeModels = (list: ModelInput[]) => {
    setModels(list);
    setBindings((b) => keepBound(b, list));
  };
  const toggleModel = (model: Schemas['DiscoveredModel'], on: boolean) =>
    changeModels(
      on
        ? [...models, model]
        : models.filter((m) => m.remoteModelId.toLowerCase() !== model.remoteModelId.toLowerCase()),
    );

  return (
    <Form action={create} submitLabel="Create connection" pendingLabel="Creating…" label="New AI connection">
      <Section title="Endpoint">
        <div className="row">
          <TextField
            label="Name"
            name="displayName"
            value={displayName}
            onChange={setDisplayName}
            required
            maxLength={200}
          />
          <SelectField
            label="Provider kind"
            name="providerKind"
            value={providerKind}
            onChange={(v) => {
              setKind(v as AiKind);
              if (v !== 'kindCloudA') setAuthMode('apiKey');
            }}
            options={Object.entries(AI_KINDS).map(([value, text]) => ({ value, label: text }))}
          />
          <TextField
            label="Base URL"
            name="baseUrl"
            type="url"
            value={baseUrl}
            onChange={setBaseUrl}
            maxLength={1000}
            required={
              providerKind === 'kindCompatible' || providerKind === 'kindProxy' || providerKind === 'kindCloudA'
            }
            hint="Empty for the public endpoint of OpenAI, Anthropic, Bedrock and Vertex."
          />
        </div>
        <div className="row">
          {providerKind === 'kindCloudA' && (
            <SelectField
              label="Authentication"
              name="auth.mode"
              value={authMode}
              onChange={(v) => setAuthMode(v as 'apiKey')}
              options={[
                { value: 'apiKey', label: 'API key' },
                { value: 'azureIdentity', label: "The host's managed identity" },
              ]}
            />
          )}
          {authMode === 'apiKey' && (
            <TextField
              label="API key"
              name="auth.apiKey"
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={setApiKey}
              maxLength={4096}
              required={providerKind !== 'kindCompatible'}
              hint="Write-only: stored encrypted, never shown again."
            />
          )}
          {REGION_PARAM[providerKind] && (
            <TextField
              label={providerKind === 'kindCloudB' ? 'Region' : 'Project'}
              name={`defaultQueryParams.${REGION_PARAM[providerKind]}`}
              value={param}
              onChange={setParam}
              required
            />
          )}
        </div>
        <div className="form-actions">
          <button type="button" onClick={() => void probe.run()} disabled={probe.pending}>
            {probe.pending ? 'Probing…' : 'Probe'}
          </button>
          <button type="button" onClick={() => void discover.run()} disabled={discover.pending}>
            {discover.pending ? 'Discovering…' : 'Discover models'}
          </button>
        </div>
        <ProblemSummary problem={probe.problem ?? discover.problem} />
        {probeResult && <CheckResult result={probeResult} what="Probe" />}
      </Section>

      <Section title="Models">
        {discovered && discovered.discoveryStatus === 'failed' && (
          <p className="problem">
            Discovery failed{discovered.warnings.length ? `: ${discovered.warnings.join(' ')}` : '.'} Add models by
            hand.
          </p>
        )}
        {discovered && discovered.models.length > 0 && (
          <fieldset className="fieldset">
            <legend>Discovered models: pick the ones to use</legend>
            <ul className="checks">
              {discovered.models.map((m) => (
                <li key={m.remoteModelId}>
                  <label>
                    <input
                      type="checkbox"
                      checked={models.some((x) => x.remoteModelId === m.remoteModelId)}
                      onChange={(e) => toggleModel(m, e.target.checked)}
                    />{' '}
                    <span className="mono">{m.remoteModelId}</span>{' '}
                    <span className="muted">{m.operationKinds.join(', ')}</span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <ModelList models={models} onChange={changeModels} />
        <AddModel onAdd={(m) => setModels((list) => [...list, m])} />
      </Section>

      <Section title="Purposes">
        <p className="hint">
          Which model serves each purpose on this connection. Logical models (under Models and purposes) are the primary
          way to choose; these bindings are the fallback. At least one is required.
        </p>
        <PurposeTable models={models} bindings={bindings} onChange={setBindings} />
      </Section>
    </Form>
  );
}

/** A probe or verification answer; a failure names its category in words. */
export function CheckResult({
  result,
  what,
}: {
  result: Schemas['AiProbeResult'] | Schemas['AiVerification'];
  what: string;
}) {
  const failed = result.status === 'failed';
  return (
    <div className={failed ? 'problem' : 'result-ok'} role={failed ? 'alert' : 'status'}>
      <p>
        <Badge value={result.status} /> <strong>{what}:</strong>{' '}
        {failed ? label(AI_FAILURES, result.failureCategory ?? 'unknown') : result.summary}
      </p>
      {failed && <p>{result.summary}</p>}
      {result.warnings.length > 0 && (
        <ul>
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Models as a table with a remove button each. */
export function ModelList({ models, onChange }: { models: ModelInput[]; onChange(models: ModelInput[]): void }) {
  if (models.length === 0) return <Empty>No models yet: discover them or add one by hand.</Empty>;
  return (
    <table>
      <caption className="sr-only">Models of this connection</caption>
      <thead>
        <tr>
          <th scope="col">Model id</th>
          <th scope="col">Kinds</th>
          <th scope="col">Context / dimensions</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {models.map((m, index) => (
          <tr key={m.remoteModelId}>
            <td className="mono" id={`configuredModels[${index}].remoteModelId`}>
              {m.remoteModelId}
            </td>
            <td>{m.operationKinds?.join(', ') ?? 'inferred'}</td>
            <td>{m.embeddingDimensions ? `${m.embeddingDimensions} dimensions` : (m.maxContextTokens ?? '—')}</td>
            <td>
              <button type="button" onClick={() => onChange(models.filter((_, i) => i !== index))}>
                Remove {m.remoteModelId}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A model typed in by hand; embedding models need their tokenizer, input limit and dimensions. */
export function AddModel({ onAdd }: { onAdd(model: ModelInput): void }) {
  const [remoteModelId, setId] = useState('');
  const [kind, setKind] = useState<'chat' | 'embedding'>('chat');
  const [tokenizerName, setTokenizer] = useState('');
  const [maxInputTokens, setMaxInput] = useState('');
  const [embeddingDimensions, setDimensions] = useState('');
  const [maxContextTokens, setContext] = useState('');
  const add = () => {
    if (!remoteModelId.trim()) return;
    onAdd({
      remoteModelId: remoteModelId.trim(),
      operationKinds: [kind],
      source: 'manual',
      ...(kind === 'embedding'
        ? {
            tokenizerName,
            maxInputTokens: Number(maxInputTokens) || null,
            embeddingDimensions: Number(embeddingDimensions) || null,
          }
        : { maxContextTokens: Number(maxContextTokens) || null }),
    });
    setId('');
  };
  return (
    <fieldset className="fieldset">
      <legend>Add a model by hand</legend>
      <div className="row">
        <TextField
          label="Model id"
          name="newModel.remoteModelId"
          value={remoteModelId}
          onChange={setId}
          maxLength={200}
        />
        <SelectField
          label="Kind"
          name="newModel.kind"
          value={kind}
          onChange={(v) => setKind(v as 'chat')}
          options={['chat', 'embedding']}
        />
        {kind === 'chat' ? (
          <TextField
            label="Context window (tokens)"
            name="newModel.maxContextTokens"
            type="number"
            min={1}
            value={maxContextTokens}
            onChange={setContext}
          />
        ) : (
          <>
            <TextField
              label="Tokenizer"
              name="newModel.tokenizerName"
              value={tokenizerName}
              onChange={setTokenizer}
              maxLength={100}
            />
            <TextField
              label="Max input tokens"
              name="newModel.maxInputTokens"
              type="number"
              min={1}
              value={maxInputTokens}
              onChange={setMaxInput}
            />
            <TextField
              label="Dimensions"
              name="newModel.embeddingDimensions"
              type="number"
              min={64}
              max={4096}
              value={embeddingDimensions}
              onChange={setDimensions}
            />
          </>
        )}
      </div>
      <button type="button" onClick={add}>
        Add model
      </button>
    </fieldset>
  );
}

/** Which model serves each purpose on the connection: chat models for review purposes, embedding models for embeddings. */
export function PurposeTable({
  models,
  bindings,
  onChange,
}: {
  models: ModelInput[];
  bindings: Bindings;
  onChange(bindings: Bindings): void;
}) {
  if (models.length === 0) return <Empty>Add a model first.</Empty>;
  const bound = boundPurposes(bindings);
  return (
    <table>
      <caption className="sr-only">Purpose bindings</caption>
      <thead>
        <tr>
          <th scope="col">Purpose</th>
          <th scope="col">Model</th>
        </tr>
      </thead>
      <tbody>
        {(Object.keys(PURPOSES) as Purpose[]).map((purpose) => {
          const fits = models.filter((m) => (purpose === 'embeddingDefault' ? isEmbedding(m) : isChat(m)));
          const index = bound.indexOf(purpose);
          return (
            <tr key={purpose}>
              <th scope="row">
                <span className="mono">{purpose}</span>
                <div className="muted small">{PURPOSES[purpose]}</div>
              </th>
              <td>
                <SelectField
                  label={`Model for ${purpose}`}
                  name={`purposeBindings[${index < 0 ? bound.length : index}].remoteModelId`}
                  value={bindings[purpose] ?? ''}
                  onChange={(v) => onChange({ ...bindings, [purpose]: v || undefined })}
                  placeholder="Not bound"
                  options={fits.map((m) => m.remoteModelId)}
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Bindings without the purposes whose model is no longer configured. */
export function keepBound(bindings: Bindings, models: ModelInput[]): Bindings {
  const ids = new Set(models.map((m) => m.remoteModelId.toLowerCase()));
  return Object.fromEntries(Object.entries(bindings).filter(([, id]) => id && ids.has(id.toLowerCase()))) as Bindings;
}
