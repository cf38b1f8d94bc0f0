import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { Loaded, Time } from '../ui/display.js';
import { Form, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { TenantPicker } from './tenant-picker.js';

/** A comma- or line-separated list as the API takes it; empty: no limit of that sort (null). */
const listOf = (text: string): string[] | null => {
  const items = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : null;
};

/**
 * Where a tenant's AI connections may send code: the provider kinds and hosts its policy permits,
 * enforced when a connection is saved and before it is used. Tenant administrators read it; the
 * platform administrator sets it (Commercial).
 */
export function AiPolicyPage() {
  const { me } = useMe();
  return (
    <Page title="AI policy">
      <TenantPicker>
        {(tenant) => <TenantPolicy key={tenant.id} tenantId={tenant.id} canEdit={me.globalRole === 'platformAdmin'} />}
      </TenantPicker>
    </Page>
  );
}

function TenantPolicy({ tenantId, canEdit }: { tenantId: string; canEdit: boolean }) {
  const key = [...queryKeys.creatableTenants, tenantId, 'ai-policy'];
  const policy = useQuery({ queryKey: key, queryFn: () => api.ai.getTenantAiPolicy(tenantId) });
  return (
    <Section title="Permitted providers and hosts">
      <Loaded query={policy}>
        {(p) => (
          <>
            <dl className="pairs">
              <dt>Provider kinds</dt>
              <dd>{p.permittedProviderKinds?.join(', ') ?? <span className="muted">Any</span>}</dd>
              <dt>Hosts</dt>
              <dd>{p.permittedHosts?.join(', ') ?? <span className="muted">Any</span>}</dd>
              <dt>Changed</dt>
              <dd>
                <Time at={p.updatedAt} />
              </dd>
            </dl>
            {canEdit && (
              <PolicyForm
                tenantId={tenantId}
                queryKey={key}
                kinds={p.permittedProviderKinds?.join(', ') ?? ''}
                hosts={p.permittedHosts?.join(', ') ?? ''}
              />
            )}
          </>
        )}
      </Loaded>
    </Section>
  );
}

function PolicyForm(props: { tenantId: string; queryKey: readonly unknown[]; kinds: string; hosts: string }) {
  const [kinds, setKinds] = useState(props.kinds);
  const [hosts, setHosts] = useState(props.hosts);
  const save = useAction(
    () =>
      api.ai.putTenantAiPolicy(props.tenantId, {
        permittedProviderKinds: listOf(kinds),
        permittedHosts: listOf(hosts),
      }),
    [props.queryKey],
  );
  return (
    <Form action={save} submitLabel="Save policy" pendingLabel="Saving…" label="Tenant AI policy">
      <TextField
        label="Permitted provider kinds"
        name="permittedProviderKinds"
        value={kinds}
        onChange={setKinds}
        hint="Comma-separated kinds as the API names them, e.g. kindDirect, kindAssistant; empty permits every kind."
      />
      <TextField
        label="Permitted hosts"
        name="permittedHosts"
        value={hosts}
        onChange={setHosts}
        hint="Comma-separated; a host is exact or .suffix (e.g. .openai.azure.com); empty permits every host."
      />
    </Form>
  );
}
