import { trimTrailingSlashes } from '@margin/providers/utils';

/** What a host (or a test) may set on the Forgejo family; the adapter never reads the environment. */
export interface ForgejoOptions {
  /**
   * Used for every call. A host passes its egress-guarded fetch here (`createEgressGuardedFetch`
   * of `@margin/providers`, as the built-in families get it), which checks the address actually
   * connected to. Default: the global `fetch`.
   */
  fetch?: typeof fetch | undefined;
  /** REST base. Default `<hostBaseUrl>/api/v1`. */
  apiBaseUrl?: string | undefined;
  /** Sent as `User-Agent`. */
  userAgent?: string | undefined;
  /** Retries of a rate-limited or (for reads) failed call. Default 3. */
  retries?: number | undefined;
  /** First backoff step; doubles per retry. Default 250 ms. */
  backoffBaseMs?: number | undefined;
  /** A `Retry-After` longer than this is not waited out: the call fails as rate limited. Default 30 s. */
  maxRetryDelayMs?: number | undefined;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number | undefined;
}

/**
 * The REST base of a Forgejo or Gitea host. `hostBaseUrl` is the web address (`https://codeberg.org`,
 * `https://git.example.com/forgejo` behind a path prefix); an address that already names `/api/v1`
 * is taken as it is.
 */
export function forgejoApiBase(hostBaseUrl: string, options: ForgejoOptions = {}): string {
  if (options.apiBaseUrl) return trimTrailingSlashes(options.apiBaseUrl);
  const url = new URL(hostBaseUrl);
  const path = trimTrailingSlashes(url.pathname);
  const base = path.endsWith('/api/v1') ? path : `${path}/api/v1`;
  return `${url.origin}${base}`;
}
