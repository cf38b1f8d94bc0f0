import type { Schemas } from '@margin/sdk-client';
import { useState } from 'react';
import { api } from '../api/client.js';
import { useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { ConfirmButton, Empty, Loaded, ShownOnce, Time } from '../ui/display.js';
import { Form, ProblemSummary, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';

/** Change the password; create, list and revoke personal access tokens. */
export function AccountPage() {
  const { me } = useMe();
  return (
    <Page title="Password and tokens">
      <p>
        Signed in as <strong>{me.username}</strong> (
        {me.globalRole === 'platformAdmin' ? 'platform administrator' : 'user'}).
      </p>
      <ChangePassword />
      <PersonalAccessTokens />
    </Page>
  );
}

function ChangePassword() {
  const { me } = useMe();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [done, setDone] = useState<string>();
  const action = useAction(async () => {
    setDone(undefined);
    await api.identity.changeMyPassword({ currentPassword, newPassword });
    setCurrent('');
    setNew('');
    // The API ends every session of the user, this one too (its refresh token is revoked, so the next
    // reload would ask to sign in): sign this tab in again with the new password, so only the others end.
    try {
      await api.session.signIn(me.username, newPassword);
      setDone('Password changed.');
    } catch {
      setDone('Password changed. Sign in again with the new password when this page asks for it.');
    }
  });
  return (
    <Section title="Change password">
      <Form action={action} submitLabel="Change password" pendingLabel="Changing…" label="Change password">
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrent}
          required
          maxLength={1024}
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={setNew}
          required
          minLength={8}
          maxLength={256}
          hint="8 to 256 characters. Changing it ends your other sessions."
        />
      </Form>
      {done && (
        <p role="status" className="ok-text">
          {done}
        </p>
      )}
    </Section>
  );
}

function PersonalAccessTokens() {
  const tokens = useCursorList('tokens', queryKeys.personalAccessTokens, (q) =>
    api.identity.listPersonalAccessTokens(q),
  );
  const [label, setLabel] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [created, setCreated] = useState<Schemas['PatCreated'] | undefined>();
  const create = useAction(async () => {
    const body = expiresOn ? { label, expiresAt: new Date(`${expiresOn}T23:59:59Z`).toISOString() } : { label };
    setCreated(await api.identity.createPersonalAccessToken(body));
    setLabel('');
    setExpiresOn('');
  }, [queryKeys.personalAccessTokens]);
  const revoke = useAction(
    (id: string) => api.identity.revokePersonalAccessToken(id),
    [queryKeys.personalAccessTokens],
  );
  return (
    <Section title="Personal access tokens">
      <p className="hint">
        For scripts and CI: send the token as the <code>X-User-Pat</code> header. It acts with your permissions.
      </p>
      {created && (
        <ShownOnce label={`Token “${created.label}”`} secret={created.token} onDone={() => setCreated(undefined)} />
      )}
      <Form action={create} submitLabel="Create token" pendingLabel="Creating…" label="Create a personal access token">
        <div className="row">
          <TextField label="Label" name="label" value={label} onChange={setLabel} required maxLength={200} />
          <TextField
            label="Expires on (optional)"
            name="expiresAt"
            type="date"
            value={expiresOn}
            onChange={setExpiresOn}
            hint="Empty: never expires."
          />
        </div>
      </Form>
      <ProblemSummary problem={revoke.problem} />
      <Loaded query={tokens.query}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No tokens yet.</Empty>
          ) : (
            <>
              <table>
                <caption className="sr-only">Your personal access tokens</caption>
                <thead>
                  <tr>
                    <th scope="col">Label</th>
                    <th scope="col">Created</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Last used</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((t) => (
                    <tr key={t.id}>
                      <td>{t.label}</td>
                      <td>
                        <Time at={t.createdAt} />
                      </td>
                      <td>{t.expiresAt ? <Time at={t.expiresAt} /> : 'never'}</td>
                      <td>
                        <Time at={t.lastUsedAt} />
                      </td>
                      <td>
                        <ConfirmButton
                          label={`Revoke ${t.label}`}
                          confirmLabel="Revoke now"
                          onConfirm={() => void revoke.run(t.id)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {tokens.pager('Tokens')}
            </>
          )
        }
      </Loaded>
    </Section>
  );
}
