import { BoundedCache } from './bounded-cache.js';

/** An access token and when it stops being valid. */
export interface IssuedToken {
  token: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export interface ExpiringTokenSource {
  /** A token valid for at least the refresh margin; fetched when none is cached or it is about to expire. */
  get(): Promise<string>;
  /** Forget the cached token, e.g. after the provider rejected it with 401. */
  invalidate(): void;
  /** The current token, if any, so error messages can scrub it. */
  current(): string | undefined;
}

export interface ExpiringTokenOptions {
  /** Refresh this long before expiry. Default 5 minutes. */
  refreshBeforeMs?: number | undefined;
  /** Epoch milliseconds. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/**
 * Caches a short-lived access token (Entra client credentials, GitHub App installation tokens, a
 * managed identity's or a service account's OAuth token) until shortly before it expires.
 * Concurrent callers share one in-flight request, so a burst of parallel calls after expiry costs
 * one token exchange, not fifty. A failed exchange is not cached: the next call asks again.
 */
export function createExpiringToken(
  issue: () => Promise<IssuedToken>,
  options: ExpiringTokenOptions = {},
): ExpiringTokenSource {
  const now = options.now ?? Date.now;
  const refreshBeforeMs = options.refreshBeforeMs ?? 5 * 60_000;
  let cached: { token: string; refreshAt: number } | undefined;
  let pending: Promise<IssuedToken> | undefined;

  const remember = (token: IssuedToken) => {
    // A token that lives shorter than twice the margin is used for half its life instead.
    const lifetime = Math.max(0, token.expiresAt - now());
    cached = { token: token.token, refreshAt: token.expiresAt - Math.min(refreshBeforeMs, lifetime / 2) };
  };

  return {
    async get() {
      if (cached && cached.refreshAt > now()) return cached.token;
      if (!pending) {
        const request = issue();
        pending = request;
        request.then(
          (token) => {
            if (pending === request) {
              remember(token);
              pending = undefined;
            }
          },
          () => {
            if (pending === request) pending = undefined;
          },
        );
      }
      return (await pending).token;
    },
    invalidate() {
      cached = undefined;
      pending = undefined;
    },
    current: () => cached?.token,
  };
}

/** Expiring tokens by key: one `createExpiringToken` per identity, resource or account. */
export interface TokenCache {
  /** The key's token, issued with `issue` when none is cached or it is about to expire. */
  get(key: string, issue: () => Promise<IssuedToken>): Promise<string>;
  /** Forget the key's token, e.g. after the provider rejected it with 401. */
  invalidate(key: string): void;
}

export interface TokenCacheOptions extends ExpiringTokenOptions {
  /** Keys remembered at most; the least recently used is forgotten first. Default 256. */
  maxEntries?: number | undefined;
}

/**
 * A token per key (a service account, a managed identity and resource), each cached and refreshed
 * as `createExpiringToken` does, for adapters whose connections each bring their own identity.
 */
export function createTokenCache(options: TokenCacheOptions = {}): TokenCache {
  type Issue = () => Promise<IssuedToken>;
  const entries = new BoundedCache<string, { latest: { issue: Issue }; source: ExpiringTokenSource }>(
    options.maxEntries ?? 256,
  );
  return {
    get(key, issue) {
      let entry = entries.get(key);
      if (!entry) {
        const latest = { issue };
        entry = { latest, source: createExpiringToken(() => latest.issue(), options) };
        entries.set(key, entry);
      }
      // The latest caller's way of issuing is the one used when the token is next due.
      entry.latest.issue = issue;
      return entry.source.get();
    },
    invalidate(key) {
      entries.get(key)?.source.invalidate();
    },
  };
}
