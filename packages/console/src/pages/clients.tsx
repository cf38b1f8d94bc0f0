import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Badge, Empty, Loaded, Time } from '../ui/display.js';
import { Form, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';

/** Every client the user can see, and a form to create one in a tenant they may create clients in. */
export function ClientsPage() {
  const clients = useCursorList('clients', queryKeys.clients, (q) => api.tenancy.listClients(q));
  return (
    <Page title="Clients">
      <Section title="All clients">
        <Loaded query={clients.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No clients yet: create the first one below.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Clients</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">State</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((c) => (
                      <tr key={c.id}>
                        <td>
                          <Link to={`/clients/${c.id}`}>{c.displayName}</Link>
                        </td>
                        <td>
                          <Badge value={c.isActive ? 'active' : 'inactive'} />
                        </td>
                        <td>
                          <Time at={c.createdAt} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {clients.pager('Clients')}
              </>
            )
          }
        </Loaded>
      </Section>
      <CreateClient />
    </Page>
  );
}

function CreateClient() {
  const navigate = useNavigate();
  const tenants = useQuery({
    queryKey: queryKeys.creatableTenants,
    queryFn: () => api.tenancy.listCreatableTenants(),
  });
  const [displayName, setDisplayName] = useState('');
  const [tenantId, setTenantId] = useState('');
  const action = useAction(async () => {
    const tenant = tenantId || tenants.data?.items[0]?.id || '';
    const client = await api.tenancy.createClient({ displayName, tenantId: tenant });
    navigate(`/clients/${client.id}`);
  }, [queryKeys.clients]);
  return (
    <Section title="Create a client">
      <Loaded query={tenants}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>You may not create clients in any tenant.</Empty>
          ) : (
            <Form action={action} submitLabel="Create client" pendingLabel="Creating…" label="Create a client">
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
                  label="Tenant"
                  name="tenantId"
                  value={tenantId || data.items[0]?.id || ''}
                  onChange={setTenantId}
                  options={data.items.map((t) => ({
                    value: t.id,
                    label: t.isSystem ? `${t.displayName} (System)` : t.displayName,
                  }))}
                />
              </div>
            </Form>
          )
        }
      </Loaded>
    </Section>
  );
}
