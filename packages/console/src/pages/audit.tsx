import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { Empty, Loaded, Time } from '../ui/display.js';
import { SelectField } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { useCursorList } from '../ui/paging.js';

/**
 * Who changed which configuration, newest first: for the platform administrator the whole
 * installation's trail or one tenant's; for a tenant administrator the trail of a tenant they administer.
 */
export function AuditPage() {
  const { me } = useMe();
  const installation = me.globalRole === 'platformAdmin';
  const [params, setParams] = useSearchParams();
  // The tenants this user administers (all of them, for the platform administrator).
  const tenants = useQuery({ queryKey: queryKeys.creatableTenants, queryFn: () => api.tenancy.listCreatableTenants() });
  const tenantId = params.get('tenant') ?? (installation ? '' : (tenants.data?.items[0]?.id ?? ''));
  const entries = useCursorList('audit', [...queryKeys.audit, tenantId], (q) =>
    tenantId
      ? api.audit.listTenantAudit(tenantId, q)
      : installation
        ? api.audit.listPlatformAudit(q)
        : Promise.resolve({ items: [], nextCursor: null }),
  );
  const chooseTenant = (next: string) =>
    setParams(() => {
      const copy = new URLSearchParams();
      if (next) copy.set('tenant', next);
      return copy;
    });
  return (
    <Page title="Audit trail">
      <Section title="Changes">
        <p>
          Every change to tenants, members, licensing, connections and webhook and crawl configurations, with who made
          it. Summaries name the fields that changed, never a secret.
        </p>
        <SelectField
          label="Tenant"
          name="tenant"
          value={tenantId}
          onChange={chooseTenant}
          placeholder={installation ? 'The whole installation' : undefined}
          options={(tenants.data?.items ?? []).map((t) => ({ value: t.id, label: t.displayName }))}
        />
        <Loaded query={entries.query}>
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No changes recorded yet.</Empty>
            ) : (
              <>
                <table>
                  <caption className="sr-only">Audit entries, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Action</th>
                      <th scope="col">Summary</th>
                      <th scope="col">Resource</th>
                      <th scope="col">By</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.items.map((e) => (
                      <tr key={e.id}>
                        <td>
                          <Time at={e.at} />
                        </td>
                        <td className="mono">{e.action}</td>
                        <td>{e.summary}</td>
                        <td>
                          <span className="mono small">{e.resourceId}</span>
                          {e.clientId && <div className="muted mono small">client {e.clientId}</div>}
                        </td>
                        <td className="muted mono small">{e.actorUserId}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                {entries.pager('Audit entries')}
              </>
            )
          }
        </Loaded>
      </Section>
    </Page>
  );
}
