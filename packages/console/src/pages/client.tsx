import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { useClient } from '../app/client-layout.js';
import { Badge, ConfirmButton, Empty, Loaded, Time } from '../ui/display.js';
import { Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';
import { JobTable } from './job-table.js';

const ROLES = [
  { value: 'ClientUser', label: 'Client user (reads, restarts, by-coordinates reviews)' },
  { value: 'ClientAdministrator', label: 'Client administrator (configures, submits, stops, dismisses)' },
];

/** A client's home: its state, latest reviews, setup checklist and members. */
export function ClientPage() {
  const { client } = useClient();
  const jobs = useCursorList(
    'jobs',
    [...queryKeys.jobs(client.id), 'latest'],
    (q) => api.reviewing.listReviewJobs(client.id, { ...q, limit: 10 }),
    { refetchInterval: 5000 },
  );
  return (
    <Page title={client.displayName}>
      <p>
        <Badge value={client.isActive ? 'active' : 'inactive'} /> Created <Time at={client.createdAt} />. Set up{' '}
        <Link to="scm">source control</Link>, an <Link to="ai">AI connection</Link> and its{' '}
        <Link to="models">purpose map</Link>, then a <Link to="webhooks">webhook</Link>.
      </p>
      <Section title="Latest reviews" actions={<Link to="reviews">All reviews</Link>}>
        <Loaded query={jobs.query}>
          {(data) => (data.items.length ? <JobTable jobs={data.items} /> : <Empty>No reviews yet.</Empty>)}
        </Loaded>
      </Section>
      <Members />
    </Page>
  );
}

function Members() {
  const { client, canAdminister } = useClient();
  const members = useCursorList('members', queryKeys.members(client.id), (q) =>
    api.identity.listClientMembers(client.id, q),
  );
  const [userId, setUserId] = useState('');
  const [role, setRole] = useState('ClientUser');
  const put = useAction(async () => {
    await api.identity.putClientMember(client.id, userId.trim(), { role: role as 'ClientUser' });
    setUserId('');
  }, [queryKeys.members(client.id)]);
  const remove = useAction(
    (id: string) => api.identity.removeClientMember(client.id, id),
    [queryKeys.members(client.id)],
  );
  return (
    <Section title="Members">
      <ProblemSummary problem={remove.problem} />
      <Loaded query={members.query}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No members with an explicit role. Platform and tenant administrators reach every client.</Empty>
          ) : (
            <>
              <table>
                <caption className="sr-only">Members of {client.displayName}</caption>
                <thead>
                  <tr>
                    <th scope="col">User</th>
                    <th scope="col">Role</th>
                    <th scope="col">Since</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((m) => (
                    <tr key={m.userId}>
                      <td>
                        {m.displayName} <span className="muted">{m.username}</span>
                      </td>
                      <td>{m.role}</td>
                      <td>
                        <Time at={m.createdAt} />
                      </td>
                      <td>
                        {canAdminister && (
                          <ConfirmButton
                            label={`Remove ${m.username}`}
                            confirmLabel="Remove now"
                            onConfirm={() => void remove.run(m.userId)}
                          />
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {members.pager('Members')}
            </>
          )
        }
      </Loaded>
      {canAdminister && <AddMember userId={userId} setUserId={setUserId} role={role} setRole={setRole} put={put} />}
    </Section>
  );
}

function AddMember(props: {
  userId: string;
  setUserId(v: string): void;
  role: string;
  setRole(v: string): void;
  put: ReturnType<typeof useAction<[], void>>;
}) {
  // Platform admins pick from the user list when it fits one page of the API; others (and
  // installations with more users than that) paste the user id they were given.
  const users = useQuery({
    queryKey: [...queryKeys.users, { limit: 200 }],
    queryFn: () => api.identity.listUsers({ limit: 200 }),
  });
  const choices =
    users.data?.nextCursor === null
      ? users.data.items.map((u) => ({ value: u.id, label: `${u.displayName} (${u.username})` }))
      : undefined;
  return (
    <Form action={props.put} submitLabel="Give role" pendingLabel="Saving…" label="Give a user a role on this client">
      <div className="row">
        {choices && choices.length > 0 ? (
          <SelectField
            label="User"
            name="userId"
            value={props.userId}
            onChange={props.setUserId}
            options={choices}
            placeholder="Choose a user…"
            required
          />
        ) : (
          <TextField
            label="User id"
            name="userId"
            value={props.userId}
            onChange={props.setUserId}
            required
            hint={users.data?.nextCursor ? 'Too many users to list here: paste the id from the Users page.' : undefined}
          />
        )}
        <SelectField label="Role" name="role" value={props.role} onChange={props.setRole} options={ROLES} />
      </div>
    </Form>
  );
}
