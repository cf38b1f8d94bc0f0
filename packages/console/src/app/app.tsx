import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { createRoutesFromElements, matchRoutes, Navigate, Route, Routes, useLocation, useRoutes } from 'react-router';
import { api } from '../api/client.js';
import { MeContext } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { SignInPage } from '../pages/sign-in.js';
import { Waiting } from '../ui/display.js';
import { ClientLayout } from './client-layout.js';
import {
  AccountPage,
  AiConnectionPage,
  AiConnectionsPage,
  AiPolicyPage,
  AuditPage,
  BlockedPage,
  ClientPage,
  ClientsPage,
  CrawlsPage,
  DismissalsPage,
  IdentityProvidersPage,
  JobPage,
  JobsPage,
  KnowledgePage,
  LicensingPage,
  LogicalModelsPage,
  MemoryPage,
  NewAiConnectionPage,
  NotFoundPage,
  OverviewPage,
  preloadPage,
  ScmConnectionPage,
  ScmConnectionsPage,
  SpendPage,
  SubmitReviewPage,
  TenantAiConnectionsPage,
  UsersPage,
  WebhookPage,
  WebhooksPage,
} from './lazy-pages.js';
import { Shell } from './shell.js';

/** Back to the page that asked for sign-in (`?next=`), only ever a path on this site. */
function AfterSignIn() {
  const next = new URLSearchParams(useLocation().search).get('next');
  return <Navigate to={next?.startsWith('/') && !next.startsWith('//') ? next : '/'} replace />;
}

/** The signed-in pages by address; a page's code is fetched on its first visit (lazy-pages.ts). */
const pageRoutes = createRoutesFromElements(
  <Route element={<Shell />}>
    <Route path="/" Component={OverviewPage} />
    <Route path="/sign-in" Component={AfterSignIn} />
    <Route path="/account" Component={AccountPage} />
    <Route path="/admin/users" Component={UsersPage} />
    <Route path="/admin/licensing" Component={LicensingPage} />
    <Route path="/admin/audit" Component={AuditPage} />
    <Route path="/admin/ai-policy" Component={AiPolicyPage} />
    <Route path="/admin/ai-connections" Component={TenantAiConnectionsPage} />
    <Route path="/admin/sso" Component={IdentityProvidersPage} />
    <Route path="/clients" Component={ClientsPage} />
    <Route path="/clients/:clientId" Component={ClientLayout}>
      <Route index Component={ClientPage} />
      <Route path="scm" Component={ScmConnectionsPage} />
      <Route path="scm/:connectionId" Component={ScmConnectionPage} />
      <Route path="ai" Component={AiConnectionsPage} />
      <Route path="ai/new" Component={NewAiConnectionPage} />
      <Route path="ai/:connectionId" Component={AiConnectionPage} />
      <Route path="models" Component={LogicalModelsPage} />
      <Route path="webhooks" Component={WebhooksPage} />
      <Route path="webhooks/:configId" Component={WebhookPage} />
      <Route path="crawls" Component={CrawlsPage} />
      <Route path="knowledge" Component={KnowledgePage} />
      <Route path="reviews" Component={JobsPage} />
      <Route path="reviews/submit" Component={SubmitReviewPage} />
      <Route path="reviews/:jobId" Component={JobPage} />
      <Route path="blocked" Component={BlockedPage} />
      <Route path="dismissals" Component={DismissalsPage} />
      <Route path="memory" Component={MemoryPage} />
      <Route path="spend" Component={SpendPage} />
    </Route>
    <Route path="*" Component={NotFoundPage} />
  </Route>,
);

function Pages() {
  return useRoutes(pageRoutes);
}

type State = 'starting' | 'signedOut' | 'signedIn';

// Read at sign-in, and again when a change invalidates it (the licensing page's).
const meQuery = queryOptions({ queryKey: queryKeys.me, queryFn: () => api.identity.getMe(), staleTime: Infinity });

/** Signs in from the refresh cookie when it can, then serves the pages; the sign-in page otherwise. */
export function App() {
  const [state, setState] = useState<State>('starting');
  const location = useLocation();
  const queryClient = useQueryClient();
  const me = useQuery({ ...meQuery, enabled: state === 'signedIn' });

  const enter = useCallback(async () => {
    await queryClient.fetchQuery(meQuery);
    setState('signedIn');
  }, [queryClient]);

  useEffect(() => {
    // The code of the page at the address the console opens on is fetched alongside the session.
    for (const { route } of matchRoutes(pageRoutes, window.location) ?? []) preloadPage(route.Component);
    const start = async () => {
      if (api.session.signedIn || (await api.session.resume().catch(() => false))) await enter();
      else setState('signedOut');
    };
    start().catch(() => setState('signedOut'));
    return api.session.onEnded(() => {
      // Nothing read for this session may show once another user signs in on this page.
      queryClient.clear();
      setState('signedOut');
    });
  }, [enter, queryClient]);

  if (state === 'starting') return <Waiting label="Starting Margin…" />;
  if (state === 'signedOut' || !me.data) {
    const next = location.pathname === '/sign-in' ? '/' : `${location.pathname}${location.search}`;
    return (
      <Routes>
        <Route path="/sign-in" element={<SignInPage onSignedIn={enter} />} />
        <Route path="*" element={<Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace />} />
      </Routes>
    );
  }
  return (
    <MeContext.Provider value={{ me: me.data }}>
      <Pages />
    </MeContext.Provider>
  );
}
