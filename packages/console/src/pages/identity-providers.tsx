import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Badge, ConfirmButton, Empty, Loaded } from '../ui/display.js';
import { CheckField, Form, ProblemSummary, SelectField, TextField, useAction } from '../ui/form.js';
import { Page, Section } from '../ui/page.js';
import { type AdministeredTenant, TenantPicker } from './tenant-picker.js';

const CLIENT_ROLES = [
  { value: 'none', label: 'No client role' },
  { value: 'ClientUser', label: 'ClientUser on every client' },
];

/**
 * A tenant's single sign-on: its OpenID Connect identity providers and its login policy, for the
 * tenant's administrators (and the platform administrator). The tenants offered are those the
 * caller administers.
 */
export function IdentityProvidersPage() {
  return (
    <Page title="Single sign-on">
      <TenantPicker>{(tenant) => <TenantSso key={tenant.id} tenant={tenant} />}</TenantPicker>
    </Page>
  );
}

type Tenant = AdministeredTenant;

function TenantSso({ tenant }: { tenant: Tenant | undefined }) {
  if (!tenant) return null;
  return (
    <>
      <p className="hint">
        Sign-in link for this tenant: <code>{`${window.location.origin}/sign-in?tenant=${tenant.slug}`}</code>. Register{' '}
        <code>{`${window.location.origin}/api/auth/sso/callback`}</code> as the redirect URI at the identity provider.
      </p>
      <LoginPolicy tenant={tenant} />
      <Providers tenantId={tenant.id} />
      <AddProvider tenantId={tenant.id} />
    </>
  );
}

function LoginPolicy({ tenant }: { tenant: Tenant }) {
  const update = useAction(
    (loginPolicy: 'localAndSso' | 'ssoOnly') => api.tenancy.patchTenant(tenant.id, { loginPolicy }),
    [queryKeys.creatableTenants],
  );
  const ssoOnly = tenant.loginPolicy === 'ssoOnly';
  return (
    <Section title="Login policy">
      <ProblemSummary problem={update.problem} />
      <p>
        {ssoOnly
          ? 'Only single sign-on: the tenant’s users cannot sign in with a password.'
          : 'Passwords and single sign-on.'}{' '}
        The platform administrator can always sign in with a password.
      </p>
      <button
        type="button"
        disabled={update.pending}
        onClick={() => void update.run(ssoOnly ? 'localAndSso' : 'ssoOnly')}
      >
        {ssoOnly ? 'Allow passwords again' : 'Require single sign-on'}
      </button>
    </Section>
  );
}

function Providers({ tenantId }: { tenantId: string }) {
  const providers = useQuery({
    queryKey: queryKeys.identityProviders(tenantId),
    queryFn: () => api.identity.listIdentityProviders(tenantId, { limit: 200 }),
    retry: false,
  });
  const update = useAction(
    (id: string, isEnabled: boolean) => api.identity.patchIdentityProvider(tenantId, id, { isEnabled }),
    [queryKeys.identityProviders(tenantId)],
  );
  const remove = useAction(
    (id: string) => api.identity.deleteIdentityProvider(tenantId, id),
    [queryKeys.identityProviders(tenantId)],
  );
  return (
    <Section title="Identity providers">
      <ProblemSummary problem={update.problem ?? remove.problem} />
      <Loaded query={providers}>
        {(data) =>
          data.items.length === 0 ? (
            <Empty>No identity provider yet.</Empty>
          ) : (
            <table>
              <caption className="sr-only">Identity providers</caption>
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Email domains</th>
                  <th scope="col">New users</th>
                  <th scope="col">State</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((p) => (
                  <tr key={p.id}>
                    <td>
                      {p.displayName}
                      <div className="muted mono small">{p.issuerUrl}</div>
                      <div className="muted mono small">
                        client {p.clientId}
                        {p.hasClientSecret ? ' · secret set' : ' · no secret'}
                      </div>
                    </td>
                    <td>{p.allowedEmailDomains.join(', ')}</td>
                    <td>
                      {p.autoCreateUsers
                        ? `Created at first sign-in${p.defaultClientRole === 'ClientUser' ? ', ClientUser on every client' : ''}`
                        : 'Only existing linked users'}
                    </td>
                    <td>
                      <Badge value={p.isEnabled ? 'active' : 'inactive'} label={p.isEnabled ? 'enabled' : 'disabled'} />
                    </td>
                    <td className="actions">
                      <button type="button" onClick={() => void update.run(p.id, !p.isEnabled)}>
                        {p.isEnabled ? `Disable ${p.displayName}` : `Enable ${p.displayName}`}
                      </button>
                      <ConfirmButton
                        label={`Remove ${p.displayName}`}
                        confirmLabel={`Remove ${p.displayName} now`}
                        onConfirm={() => void remove.run(p.id)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </Section>
  );
}

function AddProvider({ tenantId }: { tenantId: string }) {
  const [displayName, setDisplayName] = useState('');
  const [issuerUrl, setIssuerUrl] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [domains, setDomains] = useState('');
  const [autoCreateUsers, setAutoCreateUsers] = useState(false);
  const [defaultClientRole, setDefaultClientRole] = useState('none');
  const action = useAction(async () => {
    await api.identity.createIdentityProvider(tenantId, {
      displayName,
      issuerUrl,
      clientId,
      ...(clientSecret ? { clientSecret } : {}),
      allowedEmailDomains: domains
        .split(/[\s,]+/)
        .map((d) => d.trim())
        .filter(Boolean),
      autoCreateUsers,
      defaultClientRole: defaultClientRole as 'none' | 'ClientUser',
    });
    setDisplayName('');
    setIssuerUrl('');
    setClientId('');
    setClientSecret(''); // a secret is never kept on the page after it is sent
    setDomains('');
  }, [queryKeys.identityProviders(tenantId)]);
  return (
    <Section title="Add an identity provider">
      <Form action={action} submitLabel="Add provider" pendingLabel="Adding…" label="Add an identity provider">
        <div className="row">
          <TextField
            label="Name"
            name="displayName"
            value={displayName}
            onChange={setDisplayName}
            required
            maxLength={200}
          />
          <TextField
            label="Issuer URL"
            name="issuerUrl"
            type="url"
            value={issuerUrl}
            onChange={setIssuerUrl}
            required
            hint="For example https://login.microsoftonline.com/<tenant-id>/v2.0"
          />
        </div>
        <div className="row">
          <TextField
            label="Client ID"
            name="clientId"
            value={clientId}
            onChange={setClientId}
            required
            maxLength={500}
          />
          <TextField
            label="Client secret"
            name="clientSecret"
            type="password"
            value={clientSecret}
            onChange={setClientSecret}
            maxLength={4096}
            autoComplete="off"
            hint="Stored sealed; never shown again."
          />
        </div>
        <TextField
          label="Allowed email domains"
          name="allowedEmailDomains"
          value={domains}
          onChange={setDomains}
          required
          hint="Separated by commas, for example acme.com, acme.co.uk"
        />
        <CheckField
          label="Create a user at first sign-in"
          name="autoCreateUsers"
          checked={autoCreateUsers}
          onChange={setAutoCreateUsers}
        />
        <SelectField
          label="Role of a created user"
          name="defaultClientRole"
          value={defaultClientRole}
          onChange={setDefaultClientRole}
          options={CLIENT_ROLES}
        />
      </Form>
    </Section>
  );
}
