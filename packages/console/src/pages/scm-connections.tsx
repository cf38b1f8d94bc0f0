import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, Empty, Loaded, Time } from '../ui/display.js';
import { Form, SelectField, TextAreaField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { AUTH_KINDS, familyName, PROVIDER_FAMILIES, type ProviderFamily } from '../words.js';

/** The client's source-control connections and a form to add one. */
export function ScmConnectionsPage() {
  const { client, canAdminister } = useClient();
  const connections = useCursorList('connections', queryKeys.scm(client.id), (q) =>
    api.scm.listProviderConnections(client.id, q),
  );
  return (
    <Page title="Source control">
      <Section title="Connections">
        <Loaded query={connections.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No connections yet.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Source-control connections</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Provider</th>
                      <th scope="col">Host</th>
                      <th scope="col">Verification</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((c) => (
                      <tr key={c.id}>
                        <td>
                          <Link to={c.id}>{c.displayName}</Link>
                        </td>
                        <td>{familyName(c.providerFamily)}</td>
                        <td className="mono small">{c.hostBaseUrl}</td>
                        <td>
                          <Badge value={c.verificationStatus} /> <Time at={c.lastVerifiedAt} />
                        </td>
                        <td>
                          <Badge value={c.isActive ? 'active' : 'inactive'} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {connections.pager('Connections')}
              </>
            )
          }
        </Loaded>
      </Section>
      {canAdminister && <CreateConnection />}
    </Page>
  );
}

const DEFAULT_HOSTS: Record<ProviderFamily, string> = {
  suiteDevOps: 'https://dev.azure.com/your-organization',
  gitHostA: 'https://github.com',
  gitHostB: 'https://gitlab.com',
  gitHostC: 'https://bitbucket.org',
};

function CreateConnection() {
  const { client } = useClient();
  const navigate = useNavigate();
  const [family, setFamily] = useState<ProviderFamily>('gitHostA');
  const [kind, setKind] = useState('personalAccessToken');
  const [hostBaseUrl, setHost] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [secret, setSecret] = useState('');
  const [oAuthTenantId, setTenant] = useState('');
  const [oAuthClientId, setClientId] = useState('');
  const [appId, setAppId] = useState('');
  const [installationId, setInstallationId] = useState('');
  const action = useAction(async () => {
    const created = await api.scm.createProviderConnection(client.id, {
      providerFamily: family,
      authenticationKind: kind as 'personalAccessToken',
      hostBaseUrl,
      secret,
      ...(displayName ? { displayName } : {}),
      ...(kind === 'oauthClientCredentials' ? { oAuthTenantId, oAuthClientId } : {}),
      ...(kind === 'appInstallation'
        ? { hostedAppId: Number(appId), hostedAppInstallationId: Number(installationId) }
        : {}),
    });
    setSecret(''); // write-only: the page forgets it as soon as the API has it
    navigate(created.id);
  }, [queryKeys.scm(client.id)]);
  const kinds = AUTH_KINDS[family];
  return (
    <Section title="Add a connection">
      <Form
        action={action}
        submitLabel="Create connection"
        pendingLabel="Creating…"
        label="Add a source-control connection"
      >
        <div className="row">
          <SelectField
            label="Provider"
            name="providerFamily"
            value={family}
            onChange={(v) => {
              setFamily(v as ProviderFamily);
              setKind(AUTH_KINDS[v as ProviderFamily][0]?.value ?? 'personalAccessToken');
            }}
            options={Object.entries(PROVIDER_FAMILIES).map(([value, label]) => ({ value, label }))}
          />
          <SelectField
            label="Authentication"
            name="authenticationKind"
            value={kind}
            onChange={setKind}
            options={kinds}
          />
        </div>
        <div className="row">
          <TextField
            label="Host URL"
            name="hostBaseUrl"
            type="url"
            value={hostBaseUrl}
            onChange={setHost}
            required
            placeholder={DEFAULT_HOSTS[family]}
            hint={
              family === 'suiteDevOps'
                ? 'The organization or collection URL.'
                : 'The host root, e.g. for an enterprise server.'
            }
          />
          <TextField label="Name" name="displayName" value={displayName} onChange={setDisplayName} maxLength={200} />
        </div>
        {kind === 'oauthClientCredentials' && (
          <div className="row">
            <TextField
              label="Entra tenant id"
              name="oAuthTenantId"
              value={oAuthTenantId}
              onChange={setTenant}
              required
            />
            <TextField
              label="Application (client) id"
              name="oAuthClientId"
              value={oAuthClientId}
              onChange={setClientId}
              required
            />
          </div>
        )}
        {kind === 'appInstallation' && (
          <div className="row">
            <TextField
              label="App id"
              name="hostedAppId"
              type="number"
              min={1}
              value={appId}
              onChange={setAppId}
              required
            />
            <TextField
              label="Installation id"
              name="hostedAppInstallationId"
              type="number"
              min={1}
              value={installationId}
              onChange={setInstallationId}
              required
            />
          </div>
        )}
        {kind === 'appInstallation' ? (
          <TextAreaField
            label="Private key (PEM)"
            name="secret"
            value={secret}
            onChange={setSecret}
            required
            rows={4}
            className="mono"
            spellCheck={false}
            autoComplete="off"
          />
        ) : (
          <TextField
            label={kind === 'oauthClientCredentials' ? 'Client secret' : 'Token'}
            name="secret"
            type="password"
            autoComplete="off"
            value={secret}
            onChange={setSecret}
            required
            hint="Stored encrypted; no page or answer shows it again."
          />
        )}
      </Form>
    </Section>
  );
}
