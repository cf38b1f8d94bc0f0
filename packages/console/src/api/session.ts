import { AuthenticationError, createMarginClient, type MarginClient, unwrap } from '@margin/sdk-client';

/**
 * The console's one API client and its session. The access token lives only in this module's
 * memory; the refresh token is the API's httpOnly cookie, which script never sees. A reload signs in
 * again from that cookie, so deep links keep working without storing anything in the browser.
 */

// Refresh a little before the access token runs out, so no request leaves with a dying token.
const EXPIRY_MARGIN_MS = 30_000;

let accessToken: string | undefined;
let expiresAt = 0;
let renewing: Promise<boolean> | undefined;
const listeners = new Set<() => void>();

/** Called when the session ends (refresh refused), so the app can show the sign-in page. */
export function onSessionEnded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isAuthCall = (url: string) => new URL(url).pathname.startsWith('/api/auth/') && !url.endsWith('/auth/me');

async function sessionFetch(request: Request): Promise<Response> {
  if (isAuthCall(request.url)) return fetch(request);
  if (accessToken && Date.now() > expiresAt - EXPIRY_MARGIN_MS) await renew();
  const retry = request.clone();
  if (accessToken) request.headers.set('Authorization', `Bearer ${accessToken}`);
  const response = await fetch(request);
  if (response.status !== 401) return response;
  // Expired or revoked early: refresh once and repeat the call.
  if (!(await renew())) return response;
  retry.headers.set('Authorization', `Bearer ${accessToken}`);
  return fetch(retry);
}

export const api: MarginClient = createMarginClient({
  baseUrl: `${window.location.origin}/api`,
  fetch: sessionFetch as typeof fetch,
  retries: 1,
});

function accept(answer: { accessToken: string; expiresIn: number }) {
  accessToken = answer.accessToken;
  expiresAt = Date.now() + answer.expiresIn * 1000;
}

function end() {
  const hadSession = accessToken !== undefined;
  accessToken = undefined;
  expiresAt = 0;
  if (hadSession) for (const listener of listeners) listener();
}

/**
 * Trades the refresh cookie for a new access token. Refresh tokens rotate and a reused one ends the
 * whole session, so tabs take turns (Web Locks): the second tab then sends the already-rotated cookie.
 */
export function renew(): Promise<boolean> {
  renewing ??= withRefreshLock(async () => {
    try {
      accept(await unwrap(api.raw.POST('/auth/refresh', { body: {} })));
      return true;
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      end();
      return false;
    }
  }).finally(() => {
    renewing = undefined;
  });
  return renewing;
}

function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? (locks.request('margin-refresh', work) as Promise<T>) : work();
}

export async function signIn(username: string, password: string): Promise<void> {
  accept(await unwrap(api.raw.POST('/auth/login', { body: { username, password } })));
}

export async function signOut(): Promise<void> {
  try {
    await unwrap(api.raw.POST('/auth/logout', { body: {} }));
  } finally {
    end();
  }
}

export const hasSession = () => accessToken !== undefined;
