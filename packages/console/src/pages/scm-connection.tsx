import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, Empty, Loaded, Time } from '../ui/display.js';
import { CheckField, Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { unlessMissing } from '../ui/problem.js';
import { familyName, label, SCM_FAILURES } from '../words.js';
import { DiscoveryBrowser } from './discovery.js';

type Connection = Schemas['ProviderConnection'];

/** One connection: verify it, switch it on or off, its scopes, its reviewer identity, and discovery. */
export function ScmConnectionPage() {
  const { client } = useClient();
  const { connectionId = '' } = useParams();
  const connection = useQuery({
    queryKey: queryKeys.scmConnection(client.id, connectionId),
    queryFn: () => api.scm.getProviderConnection(client.id, connectionId),
  });
  return (
    <Loaded query={connection}>
      {(c) => (
        <Page title={c.displayName}>
          <Details connection={c} />
          <Scopes connection={c} />
          <ReviewerIdentity connection={c} />
          <Section title="Discovery">
            <p className="hint">Browse what this connection reaches through one of its scopes.</p>
            <DiscoveryBrowser clientId={client.id} connectionId={c.id} />
          </Section>
        </Page>
      )}
    </Loaded>
  );
}

function Details({ connection: c }: { connection: Connection }) {
  const { client, canAdminister } = useClient();
  // The connection's state shows here and in the client's list of connections.
  const changed = [queryKeys.scm(client.id)];
  const verify = useAction(() => api.scm.verifyProviderConnection(client.id, c.id), changed);
  const toggle = useAction(() => api.scm.patchProviderConnection(client.id, c.id, { isActive: !c.isActive }), changed);
  return (
    <Section title="Connection">
      <dl className="pairs">
        <div>
          <dt>Provider</dt>
          <dd>{familyName(c.providerFamily)}</dd>
        </div>
        <div>
          <dt>Host</dt>
          <dd className="mono">{c.hostBaseUrl}</dd>
        </div>
        <div>
          <dt>Authentication</dt>
          <dd>
            {c.authenticationKind} {c.hasSecret ? '(secret stored)' : '(no secret stored)'}
          </dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>
            <Badge value={c.isActive ? 'active' : 'inactive'} />
          </dd>
        </div>
        <div>
          <dt>Verification</dt>
          <dd>
            <Badge value={c.verificationStatus} /> <Time at={c.lastVerifiedAt} />
          </dd>
        </div>
      </dl>
      {c.verificationStatus === 'failed' && (
        <div className="problem" role="alert">
          <p>
            <strong>{label(SCM_FAILURES, c.lastVerificationFailureCategory ?? '')}</strong>
          </p>
          {c.lastVerificationError && <p>{c.lastVerificationError}</p>}
        </div>
      )}
      {c.verificationStatus === 'verified' && <p className="ok-text">The provider accepted the credentials.</p>}
      <div className="form-actions">
        <button type="button" className="primary" onClick={() => void verify.run()} disabled={verify.pending}>
          {verify.pending ? 'Verifying…' : 'Verify'}
        </button>
        {canAdminister && (
          <button type="button" onClick={() => void toggle.run()} disabled={toggle.pending}>
            {c.isActive ? 'Deactivate' : 'Activate'}
          </button>
        )}
      </div>
      <ProblemSummary problem={verify.problem ?? toggle.problem} />
    </Section>
  );
}

function Scopes({ connection }: { connection: Connection }) {
  const { client, canAdminister } = useClient();
  const scopes = useCursorList('scopes', [...queryKeys.scmConnection(client.id, connection.id), 'scopes'], (q) =>
    api.scm.listProviderScopes(client.id, connection.id, q),
  );
  const [scopeType, setScopeType] = useState('organization');
  const [scopePath, setScopePath] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [externalScopeId, setExternalScopeId] = useState('');
  const [isEnabled, setEnabled] = useState(true);
  const create = useAction(async () => {
    await api.scm.createProviderScope(client.id, connection.id, {
      scopeType: scopeType as 'organization',
      scopePath,
      isEnabled,
      ...(displayName ? { displayName } : {}),
      ...(externalScopeId ? { externalScopeId } : {}),
    });
    setScopePath('');
    setDisplayName('');
    setExternalScopeId('');
  }, [queryKeys.scm(client.id)]); // the connection's scopes, and every list of the client's scopes
  return (
    <Section title="Scopes">
      <p className="hint">
        A scope is what triggers and discovery may reach: an Azure DevOps organization, a GitHub organization or user, a
        GitLab group or a Bitbucket workspace.
      </p>
      <Loaded query={scopes.query}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No scopes yet.</Empty>
          ) : (
            <>
              <table>
                <caption className="sr-only">Scopes</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">Path</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((s) => (
                    <tr key={s.id}>
                      <td>{s.displayName}</td>
                      <td>{s.scopeType}</td>
                      <td className="mono small">{s.scopePath}</td>
                      <td>
                        <Badge
                          value={s.isEnabled ? 'active' : 'inactive'}
                          label={s.isEnabled ? 'enabled' : 'disabled'}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {scopes.pager('Scopes')}
            </>
          )
        }
      </Loaded>
      {canAdminister && (
        <Form action={create} submitLabel="Add scope" pendingLabel="Adding…" label="Add a scope">
          <div className="row">
            <SelectField
              label="Scope type"
              name="scopeType"
              value={scopeType}
              onChange={setScopeType}
              options={['organization', 'project', 'repository']}
            />
            <TextField
              label="Scope URL"
              name="scopePath"
              type="url"
              value={scopePath}
              onChange={setScopePath}
              required
              maxLength={512}
              placeholder="https://github.com/acme"
            />
            <TextField label="Name" name="displayName" value={displayName} onChange={setDisplayName} maxLength={200} />
            <TextField
              label="External id (optional)"
              name="externalScopeId"
              value={externalScopeId}
              onChange={setExternalScopeId}
            />
          </div>
          <CheckField label="Enabled" name="isEnabled" checked={isEnabled} onChange={setEnabled} />
        </Form>
      )}
    </Section>
  );
}

/** The identity Margin reviews as: searched on the provider, then picked. */
function ReviewerIdentity({ connection }: { connection: Connection }) {
  const { client, canAdminister } = useClient();
  const current = useQuery({
    queryKey: [...queryKeys.scmConnection(client.id, connection.id), 'reviewer'],
    queryFn: () => unlessMissing(api.scm.getReviewerIdentity(client.id, connection.id)),
  });
  const [search, setSearch] = useState('');
  const [candidates, setCandidates] = useState<Schemas['ScmUser'][] | undefined>();
  const find = useAction(async () => {
    setCandidates((await api.scm.resolveReviewerIdentities(client.id, connection.id, { search })).items);
  });
  const pick = useAction(
    async (user: Schemas['ScmUser']) => {
      await api.scm.putReviewerIdentity(client.id, connection.id, user);
      setCandidates(undefined);
    },
    [queryKeys.scmConnection(client.id, connection.id)],
  );
  return (
    <Section title="Reviewer identity">
      {current.data ? (
        <p>
          Reviews are posted as <strong>{current.data.displayName}</strong> (
          <span className="mono">{current.data.login}</span>
          {current.data.isBot ? ', a bot' : ''}).
        </p>
      ) : (
        <p className="muted">No reviewer identity chosen yet.</p>
      )}
      {canAdminister && (
        <>
          <Form action={find} submitLabel="Search" pendingLabel="Searching…" label="Search provider users">
            <TextField
              label="Find a provider user"
              name="search"
              type="search"
              value={search}
              onChange={setSearch}
              required
              hint="A login or name; the provider is asked through this connection."
            />
          </Form>
          {candidates &&
            (candidates.length === 0 ? (
              <Empty>No users match.</Empty>
            ) : (
              <ul className="picker" aria-label="Matching users">
                {candidates.map((u) => (
                  <li key={u.externalUserId}>
                    <span>
                      {u.displayName} <span className="mono muted">{u.login}</span>{' '}
                      {u.isBot && <Badge value="muted" label="bot" />}
                    </span>
                    <button type="button" onClick={() => void pick.run(u)} disabled={pick.pending}>
                      Use {u.login}
                    </button>
                  </li>
                ))}
              </ul>
            ))}
          <ProblemSummary problem={pick.problem} />
        </>
      )}
    </Section>
  );
}
