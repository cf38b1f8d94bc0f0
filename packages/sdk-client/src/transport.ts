import ky, { HTTPError } from 'ky';
import { fetchTrusting } from './tls-fetch.js';

export interface TransportOptions {
  /** Retries for idempotent requests on 408/429/5xx and network errors. Default 2. */
  retries?: number | undefined;
  /** Per attempt. Default 30 s. */
  timeoutMs?: number | undefined;
  /** A custom fetch (tests, proxies, instrumentation). */
  fetch?: typeof fetch | undefined;
  /**
   * A certificate to trust besides the public roots (PEM): the server's self-signed one, or your
   * private CA. Certificates are always verified; there is no switch to skip that. Not with `fetch`.
   */
  ca?: string | undefined;
}

/**
 * The client's one HTTP transport: ky for timeouts and retries that honour `Retry-After`, handed to
 * openapi-fetch as its `fetch`. Non-2xx answers come back as responses; the client turns them into
 * typed errors.
 */
export function createTransport(options: TransportOptions = {}): (request: Request) => Promise<Response> {
  const http = ky.create({
    retry: {
      limit: options.retries ?? 2,
      methods: ['get', 'put', 'head', 'delete', 'options'],
      statusCodes: [408, 429, 500, 502, 503, 504],
      backoffLimit: 10_000,
    },
    timeout: options.timeoutMs ?? 30_000,
    fetch: options.fetch ?? (options.ca ? fetchTrusting(options.ca) : undefined),
  });
  // ky retries only when it throws; the final answer goes back to the caller as a plain response.
  return async (request) => {
    try {
      return await http(request);
    } catch (error) {
      if (error instanceof HTTPError) return error.response;
      throw error;
    }
  };
}
