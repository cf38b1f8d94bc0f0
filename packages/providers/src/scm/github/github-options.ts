import { trimTrailingSlashes } from '../../utils/index.js';

/** What a host (or a test) may set on the GitHub family; adapters never read the environment. */
export interface GitHubOptions {
  fetch?: typeof fetch | undefined;
  /**
   * REST base. Default from the connection's hostBaseUrl: `https://api.github.com` for github.com,
   * `https://api.<sub>.ghe.com` for GHE.com data residency, `<host>/api/v3` for GitHub Enterprise Server.
   */
  apiBaseUrl?: string | undefined;
  /** GraphQL endpoint. Default `https://api.github.com/graphql` or `<host>/api/graphql`. */
  graphqlUrl?: string | undefined;
  /** Sent as `User-Agent`, which GitHub requires. */
  userAgent?: string | undefined;
  /** Clock for GitHub App JWTs and token expiry. Default `Date.now`. */
  now?: (() => number) | undefined;
  retries?: number | undefined;
  backoffBaseMs?: number | undefined;
  maxRetryDelayMs?: number | undefined;
  timeoutMs?: number | undefined;
}

export interface GitHubEndpoints {
  rest: string;
  graphql: string;
}

/** Where a GitHub host's REST and GraphQL APIs live. */
export function gitHubEndpoints(hostBaseUrl: string, options: GitHubOptions = {}): GitHubEndpoints {
  const url = new URL(hostBaseUrl);
  let rest: string;
  let graphql: string;
  if (url.hostname === 'github.com' || url.hostname === 'api.github.com') {
    rest = 'https://api.github.com';
    graphql = 'https://api.github.com/graphql';
  } else if (url.hostname.endsWith('.ghe.com')) {
    const host = url.hostname.startsWith('api.') ? url.hostname : `api.${url.hostname}`;
    rest = `https://${host}`;
    graphql = `https://${host}/graphql`;
  } else {
    // GitHub Enterprise Server: REST under /api/v3, GraphQL at /api/graphql, on the same origin.
    rest = `${url.origin}/api/v3`;
    graphql = `${url.origin}/api/graphql`;
  }
  return {
    rest: trimTrailingSlashes(options.apiBaseUrl ?? rest),
    graphql: options.graphqlUrl ?? graphql,
  };
}
