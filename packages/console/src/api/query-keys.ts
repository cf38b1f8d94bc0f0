/**
 * Every query's key, broadest part first. A query adds what selects its data (a filter, a cursor) at
 * the end, and a change invalidates the key of what it changed: TanStack Query matches keys by
 * prefix, so invalidating `queryKeys.webhooks(clientId)` refreshes every page and configuration of
 * that client's webhooks, and nothing of another client.
 */

const client = (clientId: string) => ['client', clientId] as const;
const job = (clientId: string, jobId: string) => [...client(clientId), 'job', jobId] as const;
const scm = (clientId: string) => [...client(clientId), 'scm'] as const;
const ai = (clientId: string) => [...client(clientId), 'ai'] as const;
const webhooks = (clientId: string) => [...client(clientId), 'webhooks'] as const;

export const queryKeys = {
  /** The signed-in user, their roles and the edition. */
  me: ['me'] as const,
  health: ['health'] as const,
  /** The overview's queue counts and latest reviews, read over several clients. */
  overview: ['overview'] as const,
  licensing: ['licensing'] as const,
  users: ['users'] as const,
  /** Audit trails: the installation's, then one per tenant. Every change adds to them. */
  audit: ['audit'] as const,
  creatableTenants: ['tenants', 'creatable'] as const,
  /** The single sign-on providers the sign-in page lists for a tenant slug (public). */
  signInProviders: (slug: string) => ['sign-in-providers', slug] as const,
  /** A tenant's identity providers (tenant administrators). */
  identityProviders: (tenantId: string) => ['tenant', tenantId, 'identity-providers'] as const,
  /** A tenant's spend report per client (needs budgeting). */
  tenantSpend: (tenantId: string) => ['tenant', tenantId, 'spend'] as const,
  personalAccessTokens: ['personal-access-tokens'] as const,
  /** Lists of clients; a client's own data is under ['client', clientId]. */
  clients: ['clients'] as const,

  // A client's own data: everything under ['client', clientId].
  clientDetails: (clientId: string) => [...client(clientId), 'details'] as const,
  members: (clientId: string) => [...client(clientId), 'members'] as const,
  jobs: (clientId: string) => [...client(clientId), 'jobs'] as const,
  /** One job: its status and its protocol. */
  job,
  jobStatus: (clientId: string, jobId: string) => [...job(clientId, jobId), 'status'] as const,
  jobProtocol: (clientId: string, jobId: string) => [...job(clientId, jobId), 'protocol'] as const,
  dismissals: (clientId: string) => [...client(clientId), 'dismissals'] as const,
  memory: (clientId: string) => [...client(clientId), 'memory'] as const,
  blocks: (clientId: string) => [...client(clientId), 'blocks'] as const,
  conversations: (clientId: string) => [...client(clientId), 'conversations'] as const,
  /** Source-control connections, their scopes and reviewer identities. */
  scm,
  scmConnection: (clientId: string, connectionId: string) => [...scm(clientId), connectionId] as const,
  /** What the providers answer about projects, repositories and branches. */
  discovery: (clientId: string) => [...client(clientId), 'discovery'] as const,
  ai,
  aiConnection: (clientId: string, connectionId: string) => [...ai(clientId), connectionId] as const,
  logicalModels: (clientId: string) => [...client(clientId), 'logical-models'] as const,
  webhooks,
  webhook: (clientId: string, configId: string) => [...webhooks(clientId), configId] as const,
  crawls: (clientId: string) => [...client(clientId), 'crawls'] as const,
  knowledge: (clientId: string) => [...client(clientId), 'knowledge'] as const,
  /** The client's token-usage reports, one per grouping. */
  usage: (clientId: string) => [...client(clientId), 'usage'] as const,
  /** The client's spend caps and where this month stands (needs budgeting). */
  budget: (clientId: string) => [...client(clientId), 'budget'] as const,
};
