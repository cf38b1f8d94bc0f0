import createClient, { type Client } from 'openapi-fetch';
import { createOperations } from './generated/operations.js';
import type { components, operations, paths } from './generated/schema.js';
import { type Credentials, type MarginSession, Session } from './session.js';
import { createTransport, type TransportOptions } from './transport.js';
import { type CallOptions, unwrap } from './unwrap.js';

export type { Credentials, MarginSession } from './session.js';
export { type CallOptions, unwrap, unwrapOutcome } from './unwrap.js';
export type Schemas = components['schemas'];
/** The query parameters of an operation, e.g. `QueryOf<'discoverSources'>`. */
export type QueryOf<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export interface MarginClientOptions extends TransportOptions {
  /** The API root, e.g. `https://margin.example.com/api`. */
  baseUrl: string;
  /**
   * A personal access token (scripts, CI), an access token you manage, or a username and password:
   * the client then signs in, refreshes the access token before it expires and signs in again when
   * the session ends. Without credentials, `client.session.signIn()` or `.resume()` starts a session.
   */
  credentials?: Credentials | undefined;
}

export type RawClient = Client<paths>;

/**
 * A typed client for the Margin API: one method per operation of openapi.json, named by its
 * operationId and grouped as core groups its use cases (`client.reviewing.submitReviewJob(...)`,
 * `client.scm.createProviderConnection(...)`), generated into `generated/operations.ts`. Methods answer
 * the 2xx body and throw `MarginApiError` subclasses otherwise; `raw` is the openapi-fetch client over
 * every documented path for anything else. Hand-written on top: the session (`session`: sign-in,
 * refresh, sign-out), `reviewing.waitForJob` and `reviewing.getReviewJobProtocolPage`.
 */
export function createMarginClient(options: MarginClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const send = createTransport(options);
  const credentials = options.credentials;
  const session = new Session(baseUrl, send, credentials && 'username' in credentials ? credentials : undefined);

  /** Fixed credentials go on every call; otherwise the session's token, when there is a session. */
  const authorizedFetch = async (request: Request): Promise<Response> => {
    if (credentials && 'personalAccessToken' in credentials) {
      request.headers.set('X-User-Pat', credentials.personalAccessToken);
      return send(request);
    }
    if (credentials && 'accessToken' in credentials) {
      request.headers.set('Authorization', `Bearer ${credentials.accessToken}`);
      return send(request);
    }
    const retry = request.clone();
    const token = await session.token();
    if (token) request.headers.set('Authorization', `Bearer ${token}`);
    const response = await send(request);
    if (response.status !== 401) return response;
    // An access token revoked or expired early: renew once and repeat the call.
    const renewed = await session.refused(token);
    if (!renewed) return response;
    retry.headers.set('Authorization', `Bearer ${renewed}`);
    return send(retry);
  };

  const raw = createClient<paths>({ baseUrl, fetch: authorizedFetch });
  const generated = createOperations(raw);

  return {
    raw,
    ...generated,
    reviewing: {
      ...generated.reviewing,
      /**
       * One page of the protocol's passes, with the `cursor` of the next page (from `X-Next-Cursor`,
       * `null` on the last page): `getReviewJobProtocol` plus the header its answer carries.
       */
      getReviewJobProtocolPage: async (jobId: string, query: ProtocolQuery = {}, options?: CallOptions) => {
        const pending = raw.GET('/jobs/{jobId}/protocol', { params: { path: { jobId }, query }, ...options });
        const passes = await unwrap(pending);
        const nextCursor = (await pending).response.headers.get('x-next-cursor');
        return { passes, nextCursor };
      },
      /**
       * Polls the job until it leaves `queued` and `running` and answers its final status. Waits
       * `intervalMs` between polls (default 2 s) and gives up with a `WaitTimeoutError` after `timeoutMs`
       * (default 30 min); `signal` cancels the wait.
       */
      waitForJob: async (jobId: string, options: WaitOptions = {}) => {
        const interval = options.intervalMs ?? 2000;
        const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
        for (;;) {
          const status = await generated.reviewing.getReviewJobStatus(jobId, { signal: options.signal });
          if (status.status !== 'queued' && status.status !== 'running') return status;
          if (Date.now() + interval > deadline) throw new WaitTimeoutError(jobId, status.status);
          await sleep(interval, options.signal);
        }
      },
    },
    /** Sign-in, resume, sign-out and the end of the session, for a client without fixed credentials. */
    session: {
      signIn: (username, password) => session.signIn(username, password),
      resume: () => session.resume(),
      signOut: () => session.signOut(),
      onEnded: (listener) => session.onEnded(listener),
      get signedIn() {
        return session.signedIn;
      },
    } satisfies MarginSession as MarginSession,
  };
}

export type MarginClient = ReturnType<typeof createMarginClient>;

type ProtocolQuery = QueryOf<'getReviewJobProtocol'>;

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
