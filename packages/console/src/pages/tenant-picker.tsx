import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Empty, Loaded } from '../ui/display.js';
import { SelectField } from '../ui/form.js';

export type AdministeredTenant = Awaited<ReturnType<typeof api.tenancy.listCreatableTenants>>['items'][number];

/**
 * One of the tenants the signed-in user administers (every tenant, for the platform administrator),
 * a tenant other than System first, and what the page shows of it.
 */
export function TenantPicker({ children }: { children: (tenant: AdministeredTenant) => ReactNode }) {
  const tenants = useQuery({ queryKey: queryKeys.creatableTenants, queryFn: () => api.tenancy.listCreatableTenants() });
  const [tenantId, setTenantId] = useState('');
  useEffect(() => {
    const items = tenants.data?.items ?? [];
    if (!tenantId && items.length > 0) setTenantId((items.find((t) => !t.isSystem) ?? items[0])?.id ?? '');
  }, [tenants.data, tenantId]);
  return (
    <Loaded query={tenants}>
      {(data) => {
        if (data.items.length === 0) return <Empty>You administer no tenant.</Empty>;
        const tenant = data.items.find((t) => t.id === tenantId);
        return (
          <>
            <SelectField
              label="Tenant"
              name="tenant"
              value={tenantId}
              onChange={setTenantId}
              options={data.items.map((t) => ({ value: t.id, label: `${t.displayName} (${t.slug})` }))}
            />
            {tenant && children(tenant)}
          </>
        );
      }}
    </Loaded>
  );
}
