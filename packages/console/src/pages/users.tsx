import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Badge, Empty, Loaded, Time } from '../ui/display.js';
import { Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';

const GLOBAL_ROLES = [
  { value: 'user', label: 'User' },
  { value: 'platformAdmin', label: 'Platform administrator' },
];

/** Local accounts of the installation (platform administrators only). */
export function UsersPage() {
  const users = useCursorList('users', queryKeys.users, (q) => api.identity.listUsers(q));
  const update = useAction(
    (id: string, body: { isActive?: boolean; globalRole?: 'user' | 'platformAdmin' }) =>
      api.identity.patchUser(id, body),
    [queryKeys.users],
  );
  return (
    <Page title="Users">
      <Section title="Accounts">
        <ProblemSummary problem={update.problem} />
        <Loaded query={users.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No users.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Users</caption>
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Role</th>
                      <th scope="col">State</th>
                      <th scope="col">Created</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((u) => (
                      <tr key={u.id}>
                        <td>
                          {u.displayName} <span className="muted mono">{u.username}</span>
                          {u.email && <div className="muted small">{u.email}</div>}
                          <div className="muted mono small">{u.id}</div>
                        </td>
                        <td>{u.globalRole === 'platformAdmin' ? 'Platform administrator' : 'User'}</td>
                        <td>
                          <Badge value={u.isActive ? 'active' : 'inactive'} />
                        </td>
                        <td>
                          <Time at={u.createdAt} />
                        </td>
                        <td className="actions">
                          <button type="button" onClick={() => void update.run(u.id, { isActive: !u.isActive })}>
                            {u.isActive ? `Deactivate ${u.username}` : `Activate ${u.username}`}
                          </button>
                          <button
                            type="button"
                            onClick={() =>
                              void update.run(u.id, {
                                globalRole: u.globalRole === 'platformAdmin' ? 'user' : 'platformAdmin',
                              })
                            }
                          >
                            {u.globalRole === 'platformAdmin' ? 'Make user' : 'Make platform administrator'}
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {users.pager('Users')}
              </>
            )
          }
        </Loaded>
      </Section>
      <CreateUser />
    </Page>
  );
}

function CreateUser() {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [globalRole, setGlobalRole] = useState('user');
  const action = useAction(async () => {
    await api.identity.createUser({
      username,
      password,
      ...(displayName ? { displayName } : {}),
      ...(email ? { email } : {}),
      globalRole: globalRole as 'user',
    });
    setUsername('');
    setDisplayName('');
    setEmail('');
    setPassword('');
  }, [queryKeys.users]);
  return (
    <Section title="Create a user">
      <Form action={action} submitLabel="Create user" pendingLabel="Creating…" label="Create a user">
        <div className="row">
          <TextField
            label="Username"
            name="username"
            value={username}
            onChange={setUsername}
            required
            maxLength={200}
            pattern="[\w.@+\-]+"
            hint="Letters, digits and . _ @ + -"
            autoComplete="off"
          />
          <TextField
            label="Display name"
            name="displayName"
            value={displayName}
            onChange={setDisplayName}
            maxLength={200}
          />
          <TextField
            label="Email"
            name="email"
            type="email"
            value={email}
            onChange={setEmail}
            maxLength={320}
            hint="Optional; single sign-on refuses to take over an account with the same verified email."
            autoComplete="off"
          />
          <TextField
            label="Initial password"
            name="password"
            type="password"
            value={password}
            onChange={setPassword}
            required
            minLength={8}
            maxLength={256}
            autoComplete="new-password"
          />
          <SelectField
            label="Role"
            name="globalRole"
            value={globalRole}
            onChange={setGlobalRole}
            options={GLOBAL_ROLES}
          />
        </div>
      </Form>
    </Section>
  );
}
