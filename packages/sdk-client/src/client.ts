import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse } from './errors.js';
import type { components, operations, paths } from './generated/schema.js';
import { type Credentials, PasswordSession } from './session.js';
import { createTransport, type TransportOptions } from './transport.js';

export type { Credentials } from './session.js';
export type Schemas = components['schemas'];
/** The query parameters of an operation, e.g. `QueryOf<'discoverSources'>`. */
export type QueryOf<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export interface MarginClientOptions extends TransportOptions {
  /** The API root, e.g. `https://margin.example.com/api`. */
  baseUrl: string;
  /**
   * A personal access token (scripts, CI), an access token you manage, or a username and password:
   * the client then signs in, refreshes the access token before it expires and signs in again when
   * the session ends.
   */
  credentials?: Credentials | undefined;
}

export type RawClient = Client<paths>;

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a 2xx answer; a `MarginApiError` subclass for anything else. */
export async function unwrap<T>(pending: Promise<Result<T>>): Promise<T> {
  const result = await pending;
  if (result.response.ok) return result.data as T;
  throw errorFromResponse(result.response.status, result.error, result.response.headers.get('retry-after'));
}

/**
 * A typed client for the Margin API. Resource groups throw `MarginApiError` subclasses for non-2xx
 * answers; `raw` is the openapi-fetch client over every documented path for anything else.
 */
export function createMarginClient(options: MarginClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = createTransport(options);
  const credentials = options.credentials;
  const session =
    credentials && 'username' in credentials
      ? new PasswordSession(baseUrl, credentials.username, credentials.password, send)
      : undefined;

  const authorize = async (request: Request): Promise<Request> => {
    if (session) request.headers.set('Authorization', `Bearer ${await session.token()}`);
    else if (credentials && 'personalAccessToken' in credentials)
      request.headers.set('X-User-Pat', credentials.personalAccessToken);
    else if (credentials && 'accessToken' in credentials)
      request.headers.set('Authorization', `Bearer ${credentials.accessToken}`);
    return request;
  };
  const authorizedFetch = async (request: Request): Promise<Response> => {
    const retry = session ? request.clone() : undefined;
    const response = await send(await authorize(request));
    // An access token revoked or expired early: refresh once and repeat the call.
    if (response.status === 401 && session && retry) {
      session.invalidate();
      return send(await authorize(retry));
    }
    return response;
  };

  const raw = createClient<paths>({ baseUrl, fetch: authorizedFetch });
  const path = <K extends string>(params: Record<K, string>) => ({ params: { path: params } });

  return {
    raw,
    auth: {
      me: () => unwrap(raw.GET('/auth/me')),
      changeMyPassword: (body: Schemas['ChangePasswordInput']) => unwrap(raw.POST('/users/me/password', { body })),
    },
    personalAccessTokens: {
      /** The plaintext `token` is in this answer only. */
      create: (body: Schemas['CreatePatInput']) => unwrap(raw.POST('/users/me/pats', { body })),
      list: (query: { limit?: number; cursor?: string } = {}) =>
        unwrap(raw.GET('/users/me/pats', { params: { query } })),
      revoke: (patId: string) => unwrap(raw.DELETE('/users/me/pats/{patId}', path({ patId }))),
    },
    users: {
      create: (body: Schemas['CreateUserInput']) => unwrap(raw.POST('/admin/users', { body })),
      list: (query: { limit?: number; cursor?: string } = {}) => unwrap(raw.GET('/admin/users', { params: { query } })),
      update: (userId: string, body: Schemas['PatchUserInput']) =>
        unwrap(raw.PATCH('/admin/users/{userId}', { ...path({ userId }), body })),
    },
    clients: {
      list: (query: { limit?: number; cursor?: string } = {}) => unwrap(raw.GET('/clients', { params: { query } })),
      create: (body: Schemas['CreateClientInput']) => unwrap(raw.POST('/clients', { body })),
      get: (clientId: string) => unwrap(raw.GET('/clients/{clientId}', path({ clientId }))),
      update: (clientId: string, body: Schemas['PatchClientInput']) =>
        unwrap(raw.PATCH('/clients/{clientId}', { ...path({ clientId }), body })),
      members: {
        list: (clientId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(raw.GET('/clients/{clientId}/members', { params: { path: { clientId }, query } })),
        put: (clientId: string, userId: string, body: Schemas['PutClientMemberInput']) =>
          unwrap(raw.PUT('/clients/{clientId}/members/{userId}', { ...path({ clientId, userId }), body })),
        remove: (clientId: string, userId: string) =>
          unwrap(raw.DELETE('/clients/{clientId}/members/{userId}', path({ clientId, userId }))),
      },
    },
    tenants: {
      /** Tenants in which the caller may create a client. */
      listCreatable: () => unwrap(raw.GET('/admin/tenants')),
      create: (body: Schemas['CreateTenantInput']) => unwrap(raw.POST('/admin/tenants', { body })),
      update: (tenantId: string, body: Schemas['PatchTenantInput']) =>
        unwrap(raw.PATCH('/admin/tenants/{tenantId}', { ...path({ tenantId }), body })),
      members: {
        list: (tenantId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(raw.GET('/admin/tenants/{tenantId}/members', { params: { path: { tenantId }, query } })),
        put: (tenantId: string, userId: string, body: Schemas['PutTenantMemberInput']) =>
          unwrap(raw.PUT('/admin/tenants/{tenantId}/members/{userId}', { ...path({ tenantId, userId }), body })),
        remove: (tenantId: string, userId: string) =>
          unwrap(raw.DELETE('/admin/tenants/{tenantId}/members/{userId}', path({ tenantId, userId }))),
      },
    },
    /** Source control: provider connections, their scopes and reviewer identity, and discovery. */
    scm: {
      connections: {
        list: (clientId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(raw.GET('/clients/{clientId}/provider-connections', { params: { path: { clientId }, query } })),
        /** The secret is write-only: no answer ever carries it (`hasSecret` says one is stored). */
        create: (clientId: string, body: Schemas['CreateProviderConnectionInput']) =>
          unwrap(raw.POST('/clients/{clientId}/provider-connections', { ...path({ clientId }), body })),
        get: (clientId: string, connectionId: string) =>
          unwrap(raw.GET('/clients/{clientId}/provider-connections/{connectionId}', path({ clientId, connectionId }))),
        update: (clientId: string, connectionId: string, body: Schemas['PatchProviderConnectionInput']) =>
          unwrap(
            raw.PATCH('/clients/{clientId}/provider-connections/{connectionId}', {
              ...path({ clientId, connectionId }),
              body,
            }),
          ),
        remove: (clientId: string, connectionId: string) =>
          unwrap(
            raw.DELETE('/clients/{clientId}/provider-connections/{connectionId}', path({ clientId, connectionId })),
          ),
        /** Records and returns the outcome; a provider's refusal is `verificationStatus: "failed"`, not an error. */
        verify: (clientId: string, connectionId: string) =>
          unwrap(
            raw.POST(
              '/clients/{clientId}/provider-connections/{connectionId}/verify',
              path({ clientId, connectionId }),
            ),
          ),
      },
      scopes: {
        list: (clientId: string, connectionId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(
            raw.GET('/clients/{clientId}/provider-connections/{connectionId}/scopes', {
              params: { path: { clientId, connectionId }, query },
            }),
          ),
        create: (clientId: string, connectionId: string, body: Schemas['CreateProviderScopeInput']) =>
          unwrap(
            raw.POST('/clients/{clientId}/provider-connections/{connectionId}/scopes', {
              ...path({ clientId, connectionId }),
              body,
            }),
          ),
        update: (clientId: string, connectionId: string, scopeId: string, body: Schemas['PatchProviderScopeInput']) =>
          unwrap(
            raw.PATCH('/clients/{clientId}/provider-connections/{connectionId}/scopes/{scopeId}', {
              ...path({ clientId, connectionId, scopeId }),
              body,
            }),
          ),
        remove: (clientId: string, connectionId: string, scopeId: string) =>
          unwrap(
            raw.DELETE(
              '/clients/{clientId}/provider-connections/{connectionId}/scopes/{scopeId}',
              path({ clientId, connectionId, scopeId }),
            ),
          ),
      },
      reviewerIdentity: {
        /** Provider users matching `search`, to pick the identity from. */
        resolve: (clientId: string, connectionId: string, search: string) =>
          unwrap(
            raw.GET('/clients/{clientId}/provider-connections/{connectionId}/reviewer-identities/resolve', {
              params: { path: { clientId, connectionId }, query: { search } },
            }),
          ),
        get: (clientId: string, connectionId: string) =>
          unwrap(
            raw.GET(
              '/clients/{clientId}/provider-connections/{connectionId}/reviewer-identity',
              path({ clientId, connectionId }),
            ),
          ),
        put: (clientId: string, connectionId: string, body: Schemas['PutReviewerIdentityInput']) =>
          unwrap(
            raw.PUT('/clients/{clientId}/provider-connections/{connectionId}/reviewer-identity', {
              ...path({ clientId, connectionId }),
              body,
            }),
          ),
      },
      /** Read from the provider through the connection of the scope named by `organizationScopeId`. */
      discovery: {
        projects: (clientId: string, query: QueryOf<'discoverProjects'>) =>
          unwrap(
            raw.GET('/admin/clients/{clientId}/devops/discovery/projects', {
              params: { path: { clientId }, query },
            }),
          ),
        sources: (clientId: string, query: QueryOf<'discoverSources'>) =>
          unwrap(
            raw.GET('/admin/clients/{clientId}/devops/discovery/sources', { params: { path: { clientId }, query } }),
          ),
        branches: (clientId: string, query: QueryOf<'discoverBranches'>) =>
          unwrap(
            raw.GET('/admin/clients/{clientId}/devops/discovery/branches', {
              params: { path: { clientId }, query },
            }),
          ),
        /** The project's repositories as `repoFilters` entries for crawl and webhook configurations. */
        crawlFilters: (clientId: string, query: QueryOf<'discoverCrawlFilters'>) =>
          unwrap(
            raw.GET('/admin/clients/{clientId}/devops/discovery/crawl-filters', {
              params: { path: { clientId }, query },
            }),
          ),
      },
    },
    reviewing: {
      /** Queues a review (ClientAdministrator); answers `{jobId, status: 'queued', ...}`. */
      submitJob: (clientId: string, body: Schemas['SubmitJobInput']) =>
        unwrap(raw.POST('/clients/{clientId}/reviewing/jobs', { ...path({ clientId }), body })),
      /**
       * A review of a pull request named by its coordinates. Every named outcome comes back as data
       * (`submitted`, `duplicateActiveJob`, `notSubmittable`, `notAuthorized`, `pullRequestNotFound`,
       * `submissionFailed`, `revisionUnresolvable`); answers without one (400, 401, an invisible client)
       * throw as usual.
       */
      submitByCoordinates: async (
        clientId: string,
        body: Schemas['SubmitByCoordinatesInput'],
      ): Promise<Schemas['ByCoordinatesResult']> => {
        const result = await raw.POST('/clients/{clientId}/reviewing/jobs/by-coordinates', {
          ...path({ clientId }),
          body,
        });
        const answer: unknown = result.response.ok ? result.data : result.error;
        if (typeof answer === 'object' && answer !== null && 'outcome' in answer) {
          return answer as Schemas['ByCoordinatesResult'];
        }
        throw errorFromResponse(result.response.status, result.error, result.response.headers.get('retry-after'));
      },
      listJobs: (clientId: string, query: NonNullable<JobListQuery> = {}) =>
        unwrap(raw.GET('/clients/{clientId}/reviewing/jobs', { params: { path: { clientId }, query } })),
      getJobStatus: (jobId: string) => unwrap(raw.GET('/reviewing/jobs/{jobId}/status', path({ jobId }))),
      /** Findings remembered across pushes, newest first, filtered by pull request and `state`; paged. */
      listFindings: (clientId: string, query: NonNullable<FindingListQuery> = {}) =>
        unwrap(raw.GET('/clients/{clientId}/reviewing/findings', { params: { path: { clientId }, query } })),
      /** Where one pull request stands: its open findings, counts by state and the last completed review. */
      getPullRequestFindings: (clientId: string, query: PullRequestFindingsQuery) =>
        unwrap(
          raw.GET('/clients/{clientId}/reviewing/pull-requests/findings', { params: { path: { clientId }, query } }),
        ),
      restartJob: (jobId: string) => unwrap(raw.POST('/reviewing/jobs/{jobId}/restart', path({ jobId }))),
      stopJob: (jobId: string) => unwrap(raw.POST('/reviewing/jobs/{jobId}/stop', path({ jobId }))),
      getProtocol: (jobId: string, query: NonNullable<ProtocolQuery> = {}) =>
        unwrap(raw.GET('/jobs/{jobId}/protocol', { params: { path: { jobId }, query } })),
      /** One page of the protocol's passes, with the `cursor` of the next page (from `X-Next-Cursor`). */
      getProtocolPage: async (jobId: string, query: NonNullable<ProtocolQuery> = {}) => {
        const pending = raw.GET('/jobs/{jobId}/protocol', { params: { path: { jobId }, query } });
        const passes = await unwrap(pending);
        const nextCursor = (await pending).response.headers.get('x-next-cursor');
        return { passes, nextCursor };
      },
      /**
       * Polls the job until it leaves `queued` and `running` and answers its final status. Waits
       * `intervalMs` between polls (default 2 s) and gives up with a `TimeoutError` after `timeoutMs`
       * (default 30 min); `signal` cancels the wait.
       */
      waitForJob: async (jobId: string, options: WaitOptions = {}) => {
        const interval = options.intervalMs ?? 2000;
        const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
        for (;;) {
          const status = await unwrap(raw.GET('/reviewing/jobs/{jobId}/status', path({ jobId })));
          if (status.status !== 'queued' && status.status !== 'running') return status;
          if (Date.now() + interval > deadline) throw new WaitTimeoutError(jobId, status.status);
          await sleep(interval, options.signal);
        }
      },
      blocks: {
        list: (clientId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(raw.GET('/clients/{clientId}/reviewing/blocked-prs', { params: { path: { clientId }, query } })),
        block: (clientId: string, body: Schemas['BlockPullRequestInput']) =>
          unwrap(raw.POST('/clients/{clientId}/reviewing/blocked-prs', { ...path({ clientId }), body })),
        unblock: (clientId: string, body: Schemas['UnblockPullRequestInput']) =>
          unwrap(raw.POST('/clients/{clientId}/reviewing/blocked-prs/unblock', { ...path({ clientId }), body })),
      },
      dismissals: {
        dismiss: (clientId: string, body: Schemas['DismissFindingInput']) =>
          unwrap(raw.POST('/clients/{clientId}/reviewing/dismiss-finding', { ...path({ clientId }), body })),
        list: (clientId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(raw.GET('/clients/{clientId}/reviewing/dismissals', { params: { path: { clientId }, query } })),
        remove: (clientId: string, dismissalId: string) =>
          unwrap(raw.DELETE('/clients/{clientId}/reviewing/dismissals/{dismissalId}', path({ clientId, dismissalId }))),
      },
    },
    licensing: {
      get: () => unwrap(raw.GET('/admin/licensing')),
      update: (body: Schemas['PatchLicensingInput']) => unwrap(raw.PATCH('/admin/licensing', { body })),
    },
    ai: {
      /** Provider kinds this build can call, with their protocol modes. */
      permittedProviders: (clientId: string) =>
        unwrap(raw.GET('/clients/{clientId}/ai-connections/permitted-providers', path({ clientId }))),
      /** One cheap authenticated call against an unsaved connection; a provider failure is `status: failed`. */
      probe: (clientId: string, body: Schemas['AiProbeInput']) =>
        unwrap(raw.POST('/clients/{clientId}/ai-connections/probe', { ...path({ clientId }), body })),
      /** The models an unsaved connection offers, shaped as configured models. */
      discoverModels: (clientId: string, body: Schemas['AiProbeInput']) =>
        unwrap(raw.POST('/clients/{clientId}/ai-connections/discover-models', { ...path({ clientId }), body })),
      connections: {
        /** Created inactive and never verified; the API key is write-only. */
        create: (clientId: string, body: Schemas['CreateAiConnectionInput']) =>
          unwrap(raw.POST('/clients/{clientId}/ai-connections', { ...path({ clientId }), body })),
        list: (clientId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(raw.GET('/clients/{clientId}/ai-connections', { params: { path: { clientId }, query } })),
        get: (clientId: string, connectionId: string) =>
          unwrap(raw.GET('/clients/{clientId}/ai-connections/{connectionId}', path({ clientId, connectionId }))),
        /** A change to endpoint, auth, headers, query, models or bindings resets verification. */
        update: (clientId: string, connectionId: string, body: Schemas['PatchAiConnectionInput']) =>
          unwrap(
            raw.PATCH('/clients/{clientId}/ai-connections/{connectionId}', {
              ...path({ clientId, connectionId }),
              body,
            }),
          ),
        delete: (clientId: string, connectionId: string) =>
          unwrap(raw.DELETE('/clients/{clientId}/ai-connections/{connectionId}', path({ clientId, connectionId }))),
        /** Probes and checks every configured model; stores and returns the verification. */
        verify: (clientId: string, connectionId: string) =>
          unwrap(
            raw.POST('/clients/{clientId}/ai-connections/{connectionId}/verify', path({ clientId, connectionId })),
          ),
        /** Needs a successful verification since the last change (`ValidationError` otherwise). */
        activate: (clientId: string, connectionId: string) =>
          unwrap(
            raw.POST('/clients/{clientId}/ai-connections/{connectionId}/activate', path({ clientId, connectionId })),
          ),
        deactivate: (clientId: string, connectionId: string) =>
          unwrap(
            raw.POST('/clients/{clientId}/ai-connections/{connectionId}/deactivate', path({ clientId, connectionId })),
          ),
      },
      logicalModels: {
        /** Effective names (overrides, then unshadowed tenant entries) and the purpose mappings. */
        list: (clientId: string) => unwrap(raw.GET('/clients/{clientId}/logical-models', path({ clientId }))),
        create: (clientId: string, body: Schemas['LogicalModelInput']) =>
          unwrap(raw.POST('/clients/{clientId}/logical-models/overrides', { ...path({ clientId }), body })),
        get: (clientId: string, name: string) =>
          unwrap(raw.GET('/clients/{clientId}/logical-models/overrides/{name}', path({ clientId, name }))),
        update: (clientId: string, name: string, body: Schemas['PutLogicalModelInput']) =>
          unwrap(raw.PUT('/clients/{clientId}/logical-models/overrides/{name}', { ...path({ clientId, name }), body })),
        delete: (clientId: string, name: string) =>
          unwrap(raw.DELETE('/clients/{clientId}/logical-models/overrides/{name}', path({ clientId, name }))),
      },
      purposes: {
        set: (clientId: string, purpose: Schemas['PurposeMapping']['purpose'], body: Schemas['PutPurposeInput']) =>
          unwrap(
            raw.PUT('/clients/{clientId}/logical-models/purposes/{purpose}', {
              params: { path: { clientId, purpose } },
              body,
            }),
          ),
        /** The purpose then resolves through the profiles' purpose bindings again. */
        unset: (clientId: string, purpose: Schemas['PurposeMapping']['purpose']) =>
          unwrap(
            raw.DELETE('/clients/{clientId}/logical-models/purposes/{purpose}', {
              params: { path: { clientId, purpose } },
            }),
          ),
      },
      /** The tenant catalog. Writes: Commercial edition, never the System tenant. */
      catalog: {
        logicalModels: {
          list: (tenantId: string) => unwrap(raw.GET('/tenants/{tenantId}/logical-models', path({ tenantId }))),
          create: (tenantId: string, body: Schemas['LogicalModelInput']) =>
            unwrap(raw.POST('/tenants/{tenantId}/logical-models', { ...path({ tenantId }), body })),
          update: (tenantId: string, name: string, body: Schemas['PutLogicalModelInput']) =>
            unwrap(raw.PUT('/tenants/{tenantId}/logical-models/{name}', { ...path({ tenantId, name }), body })),
          delete: (tenantId: string, name: string) =>
            unwrap(raw.DELETE('/tenants/{tenantId}/logical-models/{name}', path({ tenantId, name }))),
        },
        models: {
          list: (tenantId: string, query: { providerKind?: Schemas['CatalogModel']['providerKind'] } = {}) =>
            unwrap(raw.GET('/tenants/{tenantId}/model-catalog/models', { params: { path: { tenantId }, query } })),
          create: (tenantId: string, body: Schemas['CatalogModelInput']) =>
            unwrap(raw.POST('/tenants/{tenantId}/model-catalog/models', { ...path({ tenantId }), body })),
          delete: (tenantId: string, modelId: string) =>
            unwrap(raw.DELETE('/tenants/{tenantId}/model-catalog/models/{modelId}', path({ tenantId, modelId }))),
        },
        providers: (tenantId: string) =>
          unwrap(raw.GET('/tenants/{tenantId}/model-catalog/providers', path({ tenantId }))),
        priceOverrides: {
          list: (tenantId: string) =>
            unwrap(raw.GET('/tenants/{tenantId}/model-catalog/overrides', path({ tenantId }))),
          /** Creates or replaces the tenant's prices for a catalog model. */
          set: (tenantId: string, body: Schemas['PriceOverrideInput']) =>
            unwrap(raw.POST('/tenants/{tenantId}/model-catalog/overrides', { ...path({ tenantId }), body })),
          delete: (tenantId: string, overrideId: string) =>
            unwrap(
              raw.DELETE('/tenants/{tenantId}/model-catalog/overrides/{overrideId}', path({ tenantId, overrideId })),
            ),
        },
      },
    },
    /** Triggers: webhook and crawl configurations, webhook delivery history, code-knowledge sources. */
    triggers: {
      webhooks: {
        /** The answer carries `listenerUrl` and `generatedSecret`; the secret is never shown again. */
        create: (body: Schemas['CreateWebhookConfigurationInput']) =>
          unwrap(raw.POST('/admin/webhook-configurations', { body })),
        /** Those of the clients the caller can see, or of one client. */
        list: (query: QueryOf<'listWebhookConfigurations'> = {}) =>
          unwrap(raw.GET('/admin/webhook-configurations', { params: { query } })),
        get: (configId: string) => unwrap(raw.GET('/admin/webhook-configurations/{configId}', path({ configId }))),
        update: (configId: string, body: Schemas['PatchWebhookConfigurationInput']) =>
          unwrap(raw.PATCH('/admin/webhook-configurations/{configId}', { ...path({ configId }), body })),
        delete: (configId: string) =>
          unwrap(raw.DELETE('/admin/webhook-configurations/{configId}', path({ configId }))),
        /** Newest first; `take` defaults to 50 and is clamped to 1–200. */
        deliveries: (configId: string, query: { take?: number } = {}) =>
          unwrap(
            raw.GET('/admin/webhook-configurations/{configId}/deliveries', {
              params: { path: { configId }, query: query.take === undefined ? {} : { take: String(query.take) } },
            }),
          ),
      },
      /** Every call needs the crawl-configs capability (`LicenseRequiredError` otherwise). */
      crawls: {
        create: (body: Schemas['CreateCrawlConfigurationInput']) =>
          unwrap(raw.POST('/admin/crawl-configurations', { body })),
        list: (query: QueryOf<'listCrawlConfigurations'> = {}) =>
          unwrap(raw.GET('/admin/crawl-configurations', { params: { query } })),
        get: (configId: string) => unwrap(raw.GET('/admin/crawl-configurations/{configId}', path({ configId }))),
        update: (configId: string, body: Schemas['PatchCrawlConfigurationInput']) =>
          unwrap(raw.PATCH('/admin/crawl-configurations/{configId}', { ...path({ configId }), body })),
        delete: (configId: string) => unwrap(raw.DELETE('/admin/crawl-configurations/{configId}', path({ configId }))),
      },
      knowledgeSources: {
        create: (clientId: string, body: Schemas['CreateKnowledgeSourceInput']) =>
          unwrap(raw.POST('/admin/clients/{clientId}/knowledge/sources', { ...path({ clientId }), body })),
        list: (clientId: string, query: { limit?: number; cursor?: string } = {}) =>
          unwrap(raw.GET('/admin/clients/{clientId}/knowledge/sources', { params: { path: { clientId }, query } })),
        get: (clientId: string, sourceId: string) =>
          unwrap(raw.GET('/admin/clients/{clientId}/knowledge/sources/{sourceId}', path({ clientId, sourceId }))),
      },
    },
  };
}

export type MarginClient = ReturnType<typeof createMarginClient>;

type JobListQuery = paths['/clients/{clientId}/reviewing/jobs']['get']['parameters']['query'];
type ProtocolQuery = paths['/jobs/{jobId}/protocol']['get']['parameters']['query'];
type FindingListQuery = paths['/clients/{clientId}/reviewing/findings']['get']['parameters']['query'];
type PullRequestFindingsQuery =
  paths['/clients/{clientId}/reviewing/pull-requests/findings']['get']['parameters']['query'];

export interface WaitOptions {
  intervalMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** `waitForJob` ran out of time; the job goes on. */
export class WaitTimeoutError extends Error {
  constructor(
    readonly jobId: string,
    readonly lastStatus: string,
  ) {
    super(`Job ${jobId} was still ${lastStatus} when the wait timed out.`);
    this.name = 'WaitTimeoutError';
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
