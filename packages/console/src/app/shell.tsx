import { useQuery } from '@tanstack/react-query';
import { Suspense } from 'react';
import { NavLink, Outlet, useLocation, useMatch, useNavigate } from 'react-router';
import { api } from '../api/client.js';
import { useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { Waiting } from '../ui/display.js';
import { useShortcuts } from './shortcuts.js';

const CLIENT_SECTIONS: ReadonlyArray<[path: string, label: string]> = [
  ['', 'Summary'],
  ['/reviews', 'Reviews'],
  ['/reviews/submit', 'Submit a review'],
  ['/blocked', 'Blocked pull requests'],
  ['/dismissals', 'Dismissed findings'],
  ['/memory', 'Thread memory'],
  ['/scm', 'Source control'],
  ['/ai', 'AI connections'],
  ['/models', 'Models and purposes'],
  ['/webhooks', 'Webhooks'],
  ['/crawls', 'Crawls'],
  ['/knowledge', 'Code knowledge'],
  ['/spend', 'Spend'],
];

/** The frame around every signed-in page: skip link, header with the client switcher, navigation. */
export function Shell() {
  const { me } = useMe();
  // Single sign-on is tenant configuration: for its administrators and the platform administrator.
  const administersTenant =
    me.globalRole === 'platformAdmin' ||
    Object.values(me.tenantRoles as Record<string, string>).includes('TenantAdministrator');
  const navigate = useNavigate();
  const location = useLocation();
  const match = useMatch('/clients/:clientId/*');
  const clientId = match?.params.clientId;
  // Creating a client invalidates `clients`, so the switcher lists it at once.
  const clients = useQuery({
    queryKey: [...queryKeys.clients, { limit: 200 }],
    queryFn: () => api.tenancy.listClients({ limit: 200 }),
  });
  useShortcuts(clientId);

  const switchClient = (id: string) => {
    if (!id) return navigate('/clients');
    // Stay in the same section for the other client; a job or connection of the old one would not exist.
    const section = location.pathname.split('/')[3];
    navigate(`/clients/${id}${section ? `/${section}` : ''}`);
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand">
          Margin
        </NavLink>
        <label className="client-switch">
          <span>Client</span>
          <select value={clientId ?? ''} onChange={(e) => switchClient(e.target.value)}>
            <option value="">All clients</option>
            {clients.data?.items.map((c) => (
              <option key={c.id} value={c.id}>
                {c.displayName}
              </option>
            ))}
          </select>
        </label>
        <span className="edition" title="Installation edition">
          {me.edition}
        </span>
        <span className="spacer" />
        <NavLink to="/account">{me.displayName || me.username}</NavLink>
        <button
          type="button"
          className="link"
          onClick={() => void api.session.signOut().finally(() => navigate('/sign-in'))}
        >
          Sign out
        </button>
      </header>
      <nav className="sidebar" aria-label="Main">
        <ul>
          <li>
            <NavLink to="/" end>
              Overview
            </NavLink>
          </li>
          <li>
            <NavLink to="/clients" end>
              Clients
            </NavLink>
          </li>
        </ul>
        {clientId && (
          <>
            <h2 className="nav-heading">
              {clients.data?.items.find((c) => c.id === clientId)?.displayName ?? 'Client'}
            </h2>
            <ul>
              {CLIENT_SECTIONS.map(([path, label]) => (
                <li key={path}>
                  <NavLink to={`/clients/${clientId}${path}`} end>
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </>
        )}
        {me.globalRole === 'platformAdmin' && (
          <>
            <h2 className="nav-heading">Installation</h2>
            <ul>
              <li>
                <NavLink to="/admin/users">Users</NavLink>
              </li>
              <li>
                <NavLink to="/admin/licensing">Licensing</NavLink>
              </li>
              <li>
                <NavLink to="/admin/audit">Audit trail</NavLink>
              </li>
            </ul>
          </>
        )}
        {administersTenant && (
          <>
            <h2 className="nav-heading">Tenant</h2>
            <ul>
              <li>
                <NavLink to="/admin/sso">Single sign-on</NavLink>
              </li>
              <li>
                <NavLink to="/admin/ai-policy">AI policy</NavLink>
              </li>
              <li>
                <NavLink to="/admin/ai-connections">Tenant AI connections</NavLink>
              </li>
              {me.globalRole !== 'platformAdmin' && (
                <li>
                  <NavLink to="/admin/audit">Audit trail</NavLink>
                </li>
              )}
            </ul>
          </>
        )}
        <h2 className="nav-heading">You</h2>
        <ul>
          <li>
            <NavLink to="/account">Password and tokens</NavLink>
          </li>
        </ul>
        <p className="shortcut-hint">
          Keys: <kbd>g</kbd> then <kbd>o</kbd> overview, <kbd>c</kbd> clients, <kbd>r</kbd> reviews, <kbd>a</kbd> AI,{' '}
          <kbd>s</kbd> source control, <kbd>w</kbd> webhooks
        </p>
      </nav>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<Waiting label="Loading the page…" />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
