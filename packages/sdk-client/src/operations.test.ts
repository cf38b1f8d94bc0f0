import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createMarginClient } from './client.js';
import { ConflictError, NotFoundError } from './errors.js';

interface Operation {
  operationId: string;
  'x-margin-group': string;
}

const document = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};
const documented = Object.values(document.paths).flatMap((item) => Object.values(item));

/** What the client adds by hand on top of the generated operations. */
const HAND_WRITTEN = [
  'reviewing.getReviewJobProtocolPage',
  'reviewing.waitForJob',
  'session.signIn',
  'session.resume',
  'session.signOut',
  'session.onEnded',
];

function sdkMethods(client: object): string[] {
  return Object.entries(client)
    .filter(([group]) => group !== 'raw')
    .flatMap(([group, methods]) =>
      Object.entries(methods as Record<string, unknown>)
        .filter(([, method]) => typeof method === 'function')
        .map(([name]) => `${group}.${name}`),
    );
}

describe('the SDK’s methods', () => {
  const client = createMarginClient({ baseUrl: 'http://127.0.0.1:9/api' });

  it('has exactly one method per operationId of openapi.json, in the operation’s x-margin-group', () => {
    const methods = sdkMethods(client);
    for (const operation of documented) {
      const named = methods.filter((m) => m.split('.')[1] === operation.operationId);
      expect(named, operation.operationId).toEqual([`${operation['x-margin-group']}.${operation.operationId}`]);
    }
  });

  it('has no other methods than the operations and the few written by hand', () => {
    const operations = new Set(documented.map((o) => `${o['x-margin-group']}.${o.operationId}`));
    expect(sdkMethods(client).filter((m) => !operations.has(m))).toEqual(HAND_WRITTEN);
  });
});

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const servers: Array<ReturnType<typeof createServer>> = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('a generated method', () => {
  it('fills the path, sends the query or the JSON body and answers the 2xx body', async () => {
    const seen: string[] = [];
    const baseUrl = await serve((req, body, res) => {
      seen.push(`${req.method} ${req.url} ${body} ${req.headers['x-extra'] ?? ''}`.trim());
      answer(res, req.method === 'POST' ? 202 : 200, { ok: true });
    });
    const client = createMarginClient({ baseUrl });
    expect(await client.reviewing.listReviewJobs('c-1', { status: 'failed', limit: 5 })).toEqual({ ok: true });
    expect(
      await client.scm.createProviderScope('c-1', 'pc-1', { providerScopePath: 'acme' } as never, {
        headers: { 'x-extra': 'yes' },
      }),
    ).toEqual({ ok: true });
    expect(seen).toEqual([
      'GET /api/clients/c-1/reviewing/jobs?status=failed&limit=5',
      'POST /api/clients/c-1/provider-connections/pc-1/scopes {"providerScopePath":"acme"} yes',
    ]);
  });

  it('throws the MarginApiError subclass of a non-2xx answer', async () => {
    const baseUrl = await serve((_req, _body, res) => answer(res, 404, { error: 'Job not found.', code: 'not_found' }));
    const client = createMarginClient({ baseUrl, retries: 0 });
    await expect(client.reviewing.getReviewJobStatus('j-1')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers the named outcomes of a by-coordinates submission as data, and still throws plain errors', async () => {
    const replies: Array<[number, unknown]> = [
      [409, { outcome: 'duplicateActiveJob', jobId: 'j-1', error: 'A review is active.', code: 'conflict' }],
      [409, { error: 'Something else.', code: 'conflict' }],
    ];
    const baseUrl = await serve((_req, _body, res) => {
      const [status, body] = replies.shift() ?? [500, {}];
      answer(res, status, body);
    });
    const client = createMarginClient({ baseUrl, retries: 0 });
    const body = { providerScopePath: 'acme', providerProjectKey: 'p', repositoryId: 'r', pullRequestId: 1 };
    expect(await client.reviewing.submitReviewByCoordinates('c-1', body)).toMatchObject({
      outcome: 'duplicateActiveJob',
      jobId: 'j-1',
    });
    await expect(client.reviewing.submitReviewByCoordinates('c-1', body)).rejects.toBeInstanceOf(ConflictError);
  });

  it('pages the protocol with X-Next-Cursor (hand-written on top of getReviewJobProtocol)', async () => {
    const baseUrl = await serve((req, _body, res) =>
      req.url?.includes('cursor=')
        ? answer(res, 200, [{ n: 2 }])
        : answer(res, 200, [{ n: 1 }], { 'x-next-cursor': 'k2' }),
    );
    const client = createMarginClient({ baseUrl });
    expect(await client.reviewing.getReviewJobProtocolPage('j-1', { limit: 1 })).toEqual({
      passes: [{ n: 1 }],
      nextCursor: 'k2',
    });
    expect(await client.reviewing.getReviewJobProtocolPage('j-1', { limit: 1, cursor: 'k2' })).toEqual({
      passes: [{ n: 2 }],
      nextCursor: null,
    });
  });
});
