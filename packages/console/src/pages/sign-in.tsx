import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api/client.js';
import { queryKeys } from '../api/query-keys.js';
import { Form, TextField, useAction } from '../ui/form.js';

/** What each `/sign-in?error=<code>` from a single sign-on means, in words (the IdP's own never shows). */
export const SSO_ERROR_MESSAGES: Record<string, string> = {
  sso_unavailable:
    'Single sign-on is not available for this provider. Sign in with your password or ask an administrator.',
  sso_failed: 'Single sign-on did not complete. Please try again.',
  email_not_verified: 'Your identity provider has not verified your email address.',
  domain_not_allowed: 'Your email domain may not sign in through this identity provider.',
  account_exists:
    'An account with your email address already exists here. Ask an administrator to link it to single sign-on.',
  no_account: 'You have no account here yet. Ask an administrator to create one.',
  account_disabled: 'Your account or your organization is deactivated.',
};

const TENANT_SLUG = /^[a-z0-9-]{2,40}$/;

/**
 * Local accounts, and the single sign-on providers of a tenant named by its slug (typed here or
 * given as `?tenant=`). The answers for a locked account and for too many attempts are explained in words.
 */
export function SignInPage({ onSignedIn }: { onSignedIn(): Promise<void> }) {
  const [params, setParams] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const tenant = params.get('tenant') ?? '';
  const [tenantInput, setTenantInput] = useState(tenant);
  const error = params.get('error');
  const action = useAction(async () => {
    await api.session.signIn(username, password);
    setPassword(''); // never keep a password around longer than the call
    await onSignedIn();
  });
  useEffect(() => {
    document.title = 'Sign in · Margin';
  }, []);
  return (
    <main id="main" className="sign-in">
      <h1>Sign in to Margin</h1>
      {error && (
        <div className="problem" role="alert">
          <p>{SSO_ERROR_MESSAGES[error] ?? SSO_ERROR_MESSAGES.sso_failed}</p>
        </div>
      )}
      <Form action={action} submitLabel="Sign in" pendingLabel="Signing in…" label="Sign in">
        <TextField
          label="Username"
          name="username"
          value={username}
          onChange={setUsername}
          required
          maxLength={200}
          autoComplete="username"
          autoFocus
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          value={password}
          onChange={setPassword}
          required
          maxLength={1024}
          autoComplete="current-password"
        />
      </Form>
      <section aria-labelledby="sso-heading" className="sso">
        <h2 id="sso-heading">Single sign-on</h2>
        <form
          aria-label="Find your organization"
          onSubmit={(event) => {
            event.preventDefault();
            const next = new URLSearchParams(params);
            next.delete('error');
            next.set('tenant', tenantInput.trim().toLowerCase());
            setParams(next);
          }}
        >
          <div className="row">
            <TextField
              label="Organization"
              name="tenant"
              value={tenantInput}
              onChange={setTenantInput}
              required
              pattern="[a-z0-9\-]{2,40}"
              hint="Your organization’s short name in Margin, for example acme."
              autoComplete="organization"
            />
          </div>
          <button type="submit">Show sign-in options</button>
        </form>
        {TENANT_SLUG.test(tenant) && <TenantProviders tenant={tenant} next={params.get('next')} />}
      </section>
      <p className="hint">
        Five wrong passwords in a row lock the account for 15 minutes. Single sign-on needs the Commercial edition.
      </p>
    </main>
  );
}

/** The tenant's providers as links: each starts a browser round trip through the provider. */
function TenantProviders({ tenant, next }: { tenant: string; next: string | null }) {
  const providers = useQuery({
    queryKey: queryKeys.signInProviders(tenant),
    queryFn: () => api.identity.listSignInProviders({ tenant }),
    retry: false,
  });
  if (providers.isPending) return <p aria-live="polite">Looking up {tenant}…</p>;
  if (providers.isError || !providers.data) {
    return <p className="muted">Single sign-on is not available here.</p>;
  }
  if (providers.data.providers.length === 0) {
    return <p className="muted">No single sign-on for “{tenant}”. Check the name, or sign in with your password.</p>;
  }
  const returnTo = next?.startsWith('/') && !next.startsWith('//') ? next : '/';
  return (
    <ul className="sso-providers">
      {providers.data.providers.map((p) => (
        <li key={p.id}>
          <a className="button" href={`${p.startUrl}?returnTo=${encodeURIComponent(returnTo)}`}>
            Sign in with {p.displayName}
          </a>
        </li>
      ))}
    </ul>
  );
}
