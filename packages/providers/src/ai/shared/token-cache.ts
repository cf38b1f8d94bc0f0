/** An access token and when it stops being valid (epoch milliseconds). */
export interface ExpiringToken {
  token: string;
  expiresAtMs: number;
}

/** Refresh this long before expiry, so a token never expires in the middle of a call. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * Caches tokens per key until shortly before they expire, and shares one refresh between
 * concurrent callers so a burst of calls makes one token request.
 */
export function createTokenCache(now: () => number) {
  const tokens = new Map<string, ExpiringToken>();
  const pending = new Map<string, Promise<ExpiringToken>>();
  return {
    async get(key: string, fetchToken: () => Promise<ExpiringToken>): Promise<string> {
      const cached = tokens.get(key);
      if (cached && cached.expiresAtMs - REFRESH_MARGIN_MS > now()) return cached.token;
      let inFlight = pending.get(key);
      if (!inFlight) {
        inFlight = fetchToken().finally(() => pending.delete(key));
        pending.set(key, inFlight);
      }
      const fresh = await inFlight;
      tokens.set(key, fresh);
      return fresh.token;
    },
  };
}

export type TokenCache = ReturnType<typeof createTokenCache>;
