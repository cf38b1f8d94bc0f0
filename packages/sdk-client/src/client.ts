import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse } from './errors.js';
import type { paths } from './generated/schema.js';
import { createTransport, type TransportOptions } from './transport.js';

export type Credentials = { personalAccessToken: string } | { accessToken: string };

export interface MarginClientOptions extends TransportOptions {
  /** The API root, e.g. `https://margin.example.com/api`. */
  baseUrl: string;
  credentials?: Credentials | undefined;
}

export type RawClient = Client<paths>;

/**
 * A typed client for the Margin API. `raw` is the openapi-fetch client over every documented path;
 * resource groups wrap it and throw `MarginApiError` subclasses for non-2xx answers.
 */
export function createMarginClient(options: MarginClientOptions) {
  const raw = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: createTransport(options) });
  raw.use({
    onRequest({ request }) {
      const credentials = options.credentials;
      if (credentials && 'personalAccessToken' in credentials)
        request.headers.set('X-User-Pat', credentials.personalAccessToken);
      else if (credentials) request.headers.set('Authorization', `Bearer ${credentials.accessToken}`);
      return request;
    },
  });
  return { raw };
}

export type MarginClient = ReturnType<typeof createMarginClient>;

/** Unwraps an openapi-fetch result: the data on success, a typed error otherwise. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.response.ok) return result.data as T;
  throw errorFromResponse(result.response.status, result.error, result.response.headers.get('retry-after'));
}
