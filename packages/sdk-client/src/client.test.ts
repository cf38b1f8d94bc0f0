import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMarginClient, unwrap } from './client.js';
import {
  AuthenticationError,
  errorFromResponse,
  LicenseRequiredError,
  MarginApiError,
  RateLimitError,
} from './errors.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Array<ReturnType<typeof createServer>> = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('errorFromResponse', () => {
  it('maps statuses and codes to the error classes', () => {
    const license = errorFromResponse(409, {
      error: 'Crawling needs a Commercial license.',
      code: 'license_required',
      capability: 'crawl-configs',
    });
    expect(license).toBeInstanceOf(LicenseRequiredError);
    expect((license as LicenseRequiredError).capability).toBe('crawl-configs');
    expect(errorFromResponse(401, { error: 'Valid credentials required.', code: 'unauthenticated' })).toBeInstanceOf(
      AuthenticationError,
    );
    const limited = errorFromResponse(429, { error: 'Slow down.', code: 'rate_limited' }, '12');
    expect(limited).toBeInstanceOf(RateLimitError);
    expect((limited as RateLimitError).retryAfterSeconds).toBe(12);
  });

  it('keeps a useful message when the body is not Margin’s error shape', () => {
    const error = errorFromResponse(502, '<html>Bad gateway</html>');
    expect(MarginApiError.isInstance(error)).toBe(true);
    expect(error.message).toBe('The Margin API answered 502.');
  });
});

describe('the transport', () => {
  it('sends the personal access token header and retries idempotent requests on 503', async () => {
    const seen: Array<string | undefined> = [];
    const baseUrl = await serve((req, res) => {
      seen.push(req.headers['x-user-pat'] as string | undefined);
      if (seen.length < 2) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: 'Busy.', code: 'service_unavailable' }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    });
    const client = createMarginClient({ baseUrl, credentials: { personalAccessToken: 'mgn_test' } });
    const raw = client.raw as unknown as {
      GET(path: string): Promise<{ data?: unknown; error?: unknown; response: Response }>;
    };
    expect(await unwrap(raw.GET('/anything'))).toEqual({ ok: true });
    expect(seen).toEqual(['mgn_test', 'mgn_test']);
  });
});
