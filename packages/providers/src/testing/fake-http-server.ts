import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedWrite } from '@margin/core/testing';

export interface FakeRequest {
  method: string;
  /** Path without the query string, e.g. `/repos/acme/app/pulls/42`. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Raw body text. */
  text: string;
  /** Parsed JSON body, when it is JSON. */
  json: unknown;
  /** Values captured by `:name` segments of the matched route. */
  params: Record<string, string>;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  text?: string;
  /**
   * Sends the headers at once, then the body one byte every `trickleMs`: a provider that answers
   * but takes far too long to finish (a deadline must cover the body, not only the headers).
   */
  trickleMs?: number | undefined;
}

export type FakeHandler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeHttpServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** Adds a route; `:name` segments capture, a trailing `*` matches the rest. Later routes win. */
  on(method: string, path: string, handler: FakeHandler): void;
  /** Answers the next request (any route) with this reply instead, once. */
  interceptNext(reply: FakeReply): void;
  /**
   * Lets the handler of the next request matching `predicate` run (a write is applied), then holds
   * its reply back until `release()`: a crash test kills the client between "the provider stored
   * it" and "the client heard so". `reached` resolves when such a request has been handled.
   */
  stallReply(predicate: (request: FakeRequest) => boolean): StalledReply;
  /**
   * A live list of every write (POST, PUT, PATCH, DELETE) from now on, in the order received, with
   * its parsed body and the status it was answered with. Recorded as soon as the handler ran, so a
   * stalled reply's write is already there. `skip` leaves out writes that change nothing the test is
   * about (token exchanges, GraphQL queries sent as POST).
   */
  recordWrites(skip?: (request: FakeRequest) => boolean): AnsweredWrite[];
  close(): Promise<void>;
}

export interface AnsweredWrite extends RecordedWrite {
  status: number;
}

export interface StalledReply {
  reached: Promise<FakeRequest>;
  release(): void;
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

/**
 * A provider fake on a real loopback socket: adapters talk real HTTP to it, so tests cover headers,
 * paging and retries exactly as they go over the wire. Unknown routes answer 501 so a missing fake
 * route fails the test loudly.
 */
export async function startFakeHttpServer(): Promise<FakeHttpServer> {
  const routes: Route[] = [];
  const requests: FakeRequest[] = [];
  const intercepts: FakeReply[] = [];
  const writeRecorders: Array<{ skip: (r: FakeRequest) => boolean; writes: AnsweredWrite[] }> = [];
  const stalls: Array<{
    predicate: (r: FakeRequest) => boolean;
    reached(r: FakeRequest): void;
    released: Promise<void>;
  }> = [];

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const base = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: url.searchParams,
      headers: req.headers,
      text,
      json,
    };
    const intercepted = intercepts.shift();
    let reply: FakeReply;
    if (intercepted) {
      requests.push({ ...base, params: {} });
      reply = intercepted;
    } else {
      const match = findRoute(routes, base.method, url.pathname);
      const request = { ...base, params: match?.params ?? {} };
      requests.push(request);
      try {
        reply = match
          ? await match.route.handler(request)
          : { status: 501, json: { message: `No fake route for ${base.method} ${url.pathname}` } };
      } catch (error) {
        reply = { status: 500, json: { message: `Fake handler failed: ${(error as Error).message}` } };
      }
    }
    const handled = requests[requests.length - 1];
    const write = handled && recordedWrite(handled, req.url ?? '/');
    if (handled && write) {
      for (const recorder of writeRecorders) {
        if (!recorder.skip(handled)) recorder.writes.push({ ...write, status: reply.status ?? 200 });
      }
    }
    const stall = handled ? stalls.find((st) => st.predicate(handled)) : undefined;
    if (stall && handled) {
      stalls.splice(stalls.indexOf(stall), 1);
      stall.reached(handled);
      await stall.released;
    }
    const headers: Record<string, string> = { ...reply.headers };
    let body = reply.text ?? '';
    if (reply.json !== undefined) {
      body = JSON.stringify(reply.json);
      headers['content-type'] ??= 'application/json; charset=utf-8';
    }
    res.writeHead(reply.status ?? 200, headers);
    if (reply.trickleMs === undefined) res.end(body);
    else trickle(res, Buffer.from(body), reply.trickleMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    on(method, path, handler) {
      const names: string[] = [];
      const source = path
        .split('/')
        .map((segment) => {
          if (segment === '*') return '.*';
          if (segment.startsWith(':')) {
            names.push(segment.slice(1));
            return '([^/]+)';
          }
          return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        })
        .join('/');
      routes.unshift({ method: method.toUpperCase(), pattern: new RegExp(`^${source}$`), names, handler });
    },
    interceptNext(reply) {
      intercepts.push(reply);
    },
    stallReply(predicate) {
      let reached!: (r: FakeRequest) => void;
      let release!: () => void;
      const reachedPromise = new Promise<FakeRequest>((resolve) => {
        reached = resolve;
      });
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      stalls.push({ predicate, reached, released });
      return { reached: reachedPromise, release };
    },
    recordWrites(skip = () => false) {
      const writes: AnsweredWrite[] = [];
      writeRecorders.push({ skip, writes });
      return writes;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `body` one byte per `everyMs`, stopping when the client goes away. */
function trickle(res: ServerResponse, body: Buffer, everyMs: number): void {
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    if (sent === body.length) {
      clearInterval(timer);
      res.end();
    } else {
      res.write(body.subarray(sent, ++sent));
    }
  }, everyMs);
  res.on('close', () => clearInterval(timer));
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What a fake records of a request that changes something: method, path and query, and the body
 * (parsed JSON, else the text); undefined for a read. `path` defaults to the decoded path with the
 * query as parsed; `recordWrites` passes the URL exactly as sent.
 */
export function recordedWrite(request: FakeRequest, path = pathWithQuery(request)): RecordedWrite | undefined {
  if (!WRITE_METHODS.has(request.method)) return undefined;
  return { method: request.method, path, body: request.json !== undefined ? request.json : request.text || undefined };
}

function pathWithQuery(request: FakeRequest): string {
  const query = request.query.toString();
  return query ? `${request.path}?${query}` : request.path;
}

function findRoute(routes: Route[], method: string, rawPath: string) {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(rawPath);
    if (m) {
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(m[i + 1] ?? '');
      });
      return { route, params };
    }
  }
  return undefined;
}
