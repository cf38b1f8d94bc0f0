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
  now?: (() => number) | undefined;
}

/**
 * Caches a short-lived access token (Entra client credentials, GitHub App installation tokens) until
 * shortly before it expires. Concurrent callers share one in-flight request, so a burst of parallel
 * file fetches after expiry costs one token exchange, not fifty.
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
