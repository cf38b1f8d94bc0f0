import { type ComponentType, lazy } from 'react';

/** Each page's loader, so its code can be fetched before it renders. */
const loaders = new WeakMap<object, () => Promise<unknown>>();

/**
 * The signed-in pages, each fetched on its first visit: the first load ships the shell (sign-in,
 * frame, navigation, the API client) and not every page with what only it uses. The shell shows a
 * loading status meanwhile.
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  const Page = lazy(() => load().then((module) => ({ default: module[name] })));
  loaders.set(Page, load);
  return Page;
}

/** Starts fetching a page's code before it renders (the browser fetches a module once). */
export function preloadPage(component: ComponentType | null | undefined): void {
  const load = component ? loaders.get(component) : undefined;
  // A failure shows when the page renders and React asks for the module again.
  load?.().catch(() => undefined);
}

export const AccountPage = page(() => import('../pages/account.js'), 'AccountPage');
export const AiConnectionPage = page(() => import('../pages/ai-connection.js'), 'AiConnectionPage');
export const AiConnectionsPage = page(() => import('../pages/ai-connections.js'), 'AiConnectionsPage');
export const AiPolicyPage = page(() => import('../pages/ai-policy.js'), 'AiPolicyPage');
export const AuditPage = page(() => import('../pages/audit.js'), 'AuditPage');
export const TenantAiConnectionsPage = page(
  () => import('../pages/tenant-ai-connections.js'),
  'TenantAiConnectionsPage',
);
export const BlockedPage = page(() => import('../pages/blocked.js'), 'BlockedPage');
export const ClientPage = page(() => import('../pages/client.js'), 'ClientPage');
export const ClientsPage = page(() => import('../pages/clients.js'), 'ClientsPage');
export const CrawlsPage = page(() => import('../pages/crawls.js'), 'CrawlsPage');
export const DismissalsPage = page(() => import('../pages/dismissals.js'), 'DismissalsPage');
export const IdentityProvidersPage = page(() => import('../pages/identity-providers.js'), 'IdentityProvidersPage');
export const MemoryPage = page(() => import('../pages/memory.js'), 'MemoryPage');
export const JobPage = page(() => import('../pages/job.js'), 'JobPage');
export const JobsPage = page(() => import('../pages/jobs.js'), 'JobsPage');
export const KnowledgePage = page(() => import('../pages/knowledge.js'), 'KnowledgePage');
export const LicensingPage = page(() => import('../pages/licensing.js'), 'LicensingPage');
export const LogicalModelsPage = page(() => import('../pages/logical-models.js'), 'LogicalModelsPage');
export const NewAiConnectionPage = page(() => import('../pages/new-ai-connection.js'), 'NewAiConnectionPage');
export const NotFoundPage = page(() => import('../pages/not-found.js'), 'NotFoundPage');
export const OverviewPage = page(() => import('../pages/overview.js'), 'OverviewPage');
export const ScmConnectionPage = page(() => import('../pages/scm-connection.js'), 'ScmConnectionPage');
export const ScmConnectionsPage = page(() => import('../pages/scm-connections.js'), 'ScmConnectionsPage');
export const SpendPage = page(() => import('../pages/spend.js'), 'SpendPage');
export const SubmitReviewPage = page(() => import('../pages/submit-review.js'), 'SubmitReviewPage');
export const UsersPage = page(() => import('../pages/users.js'), 'UsersPage');
export const WebhookPage = page(() => import('../pages/webhook.js'), 'WebhookPage');
export const WebhooksPage = page(() => import('../pages/webhooks.js'), 'WebhooksPage');
