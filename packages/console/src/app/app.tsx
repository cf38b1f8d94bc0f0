import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { api } from '../api/client.js';
import { MeContext } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { AccountPage } from '../pages/account.js';
import { AiConnectionPage } from '../pages/ai-connection.js';
import { AiConnectionsPage } from '../pages/ai-connections.js';
import { BlockedPage } from '../pages/blocked.js';
import { ClientPage } from '../pages/client.js';
import { ClientsPage } from '../pages/clients.js';
import { CrawlsPage } from '../pages/crawls.js';
import { DismissalsPage } from '../pages/dismissals.js';
import { JobPage } from '../pages/job.js';
import { JobsPage } from '../pages/jobs.js';
import { KnowledgePage } from '../pages/knowledge.js';
import { LicensingPage } from '../pages/licensing.js';
import { LogicalModelsPage } from '../pages/logical-models.js';
import { NewAiConnectionPage } from '../pages/new-ai-connection.js';
import { NotFoundPage } from '../pages/not-found.js';
import { OverviewPage } from '../pages/overview.js';
import { ScmConnectionPage } from '../pages/scm-connection.js';
import { ScmConnectionsPage } from '../pages/scm-connections.js';
import { SignInPage } from '../pages/sign-in.js';
import { SubmitReviewPage } from '../pages/submit-review.js';
import { UsersPage } from '../pages/users.js';
import { WebhookPage } from '../pages/webhook.js';
import { WebhooksPage } from '../pages/webhooks.js';
import { Waiting } from '../ui/display.js';
import { ClientLayout } from './client-layout.js';
import { Shell } from './shell.js';

/** Back to the page that asked for sign-in (`?next=`), only ever a path on this site. */
function AfterSignIn() {
  const next = new URLSearchParams(useLocation().search).get('next');
  return <Navigate to={next?.startsWith('/') && !next.startsWith('//') ? next : '/'} replace />;
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
      <Routes>
        <Route element={<Shell />}>
          <Route path="/" element={<OverviewPage />} />
          <Route path="/sign-in" element={<AfterSignIn />} />
          <Route path="/account" element={<AccountPage />} />
          <Route path="/admin/users" element={<UsersPage />} />
          <Route path="/admin/licensing" element={<LicensingPage />} />
          <Route path="/clients" element={<ClientsPage />} />
          <Route path="/clients/:clientId" element={<ClientLayout />}>
            <Route index element={<ClientPage />} />
            <Route path="scm" element={<ScmConnectionsPage />} />
            <Route path="scm/:connectionId" element={<ScmConnectionPage />} />
            <Route path="ai" element={<AiConnectionsPage />} />
            <Route path="ai/new" element={<NewAiConnectionPage />} />
            <Route path="ai/:connectionId" element={<AiConnectionPage />} />
            <Route path="models" element={<LogicalModelsPage />} />
            <Route path="webhooks" element={<WebhooksPage />} />
            <Route path="webhooks/:configId" element={<WebhookPage />} />
            <Route path="crawls" element={<CrawlsPage />} />
            <Route path="knowledge" element={<KnowledgePage />} />
            <Route path="reviews" element={<JobsPage />} />
            <Route path="reviews/submit" element={<SubmitReviewPage />} />
            <Route path="reviews/:jobId" element={<JobPage />} />
            <Route path="blocked" element={<BlockedPage />} />
            <Route path="dismissals" element={<DismissalsPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </MeContext.Provider>
  );
}
