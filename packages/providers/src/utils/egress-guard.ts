import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isMetadataHostName, MarginError, refusedAddressClass } from '@margin/core/spec';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The outbound guard for calls to AI and source-control providers (decisions.md, "Outbound egress
 * guard"): https only, no loopback, private, link-local, reserved or metadata addresses, no
 * redirects — unless private egress is allowed (local models, self-hosted source control, test
 * fakes), which permits loopback/private addresses and plain http but nothing else. Which address
 * is which comes from core's `refusedAddressClass`, the same rule the save-time check uses.
 *
 * Mechanism, and why: the address is checked on the IP the connection is actually made to. The
 * fetch is undici's own (the `undici` package, pinned to a Node-20 line) with an `Agent` whose
 * `connect.lookup` resolves the name and refuses a forbidden answer inside the connect step, so a
 * name that resolves to a public address when checked and to a private one when used (DNS
 * rebinding) cannot slip through. `net.connect` skips `lookup` for IP literals, so literal hosts are
 * checked from the URL before the request. Checking with `node:dns` before the request alone would
 * leave the rebinding window open; it is used only when a caller supplies its own `fetch`, which
 * the guard cannot see inside.
 */
export interface EgressGuardOptions {
  /** `MARGIN_ALLOW_PRIVATE_EGRESS`: allow loopback/private addresses and plain http. */
  allowPrivateEgress?: boolean | undefined;
  /** Name resolution; injectable so tests can make a name resolve to any address. */
  lookup?: typeof dnsLookup | undefined;
  /**
   * A fetch to send through instead of undici. The URL, resolved-address and redirect rules still
   * apply, but the address is checked by a lookup before the request rather than at connect time.
   */
  fetch?: typeof fetch | undefined;
  /**
   * `refuse` (AI): every redirect is refused. `sameOrigin` (source control): a redirect to the same
   * scheme, host and port is followed, by the guard and checked again, since it cannot carry a
   * credential anywhere new (Bitbucket answers diff requests that way); any other is refused.
   */
  redirects?: 'refuse' | 'sameOrigin' | undefined;
  /** Names the calls in messages: `AI` (default) or `source-control`. */
  label?: string | undefined;
}

const MAX_REDIRECTS = 5;

function refused(message: string): MarginError {
  return MarginError.provider('egressRefused', message);
}

/** The URL-level rules: scheme, and the address when the host is an IP literal. Throws when refused. */
export function assertEgressUrlAllowed(url: string | URL, allowPrivateEgress: boolean, label = 'AI'): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused(`The ${label} endpoint URL is not a valid URL.`);
  }
  const scheme = parsed.protocol;
  if (scheme !== 'https:' && !(allowPrivateEgress && scheme === 'http:')) {
    throw refused(
      scheme === 'http:'
        ? `Calls to ${parsed.host} must use https; plain http is allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true.`
        : `The URL scheme ${scheme} is not allowed for ${label} endpoints; use https.`,
    );
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isMetadataHostName(host)) throw privateAddress(parsed.hostname);
  if (isIP(host) !== 0 && refusedAddressClass(host, allowPrivateEgress)) throw privateAddress(parsed.hostname);
  return parsed;
}

function privateAddress(host: string, address?: string): MarginError {
  const where = address && address !== host ? `${host} (${address})` : host;
  return refused(
    `Calls to ${where} are refused: loopback and private addresses are allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true; link-local, reserved and metadata addresses never.`,
  );
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for `net.connect` that refuses forbidden answers, so the check happens at connect time. */
function guardedLookup(resolve: typeof dnsLookup, allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    resolve(hostname, { ...(options as LookupAllOptions), all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = addresses.find((entry) => refusedAddressClass(entry.address, allowPrivate));
      if (bad) return callback(privateAddress(hostname, bad.address) as unknown as NodeJS.ErrnoException, []);
      // `net.connect` asks for every address (happy eyeballs) or for one; answer in the form asked.
      if ((options as { all?: boolean }).all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * A `fetch` that applies the egress rules. Every failure is a `MarginError` with
 * `providerFailure: egressRefused`; a redirect answer is refused, never followed.
 */
export function createEgressGuardedFetch(options: EgressGuardOptions = {}): typeof fetch {
  const allowPrivate = options.allowPrivateEgress === true;
  const label = options.label ?? 'AI';
  const resolve = options.lookup ?? dnsLookup;
  // The lookup runs with private egress allowed too: metadata, link-local and reserved answers
  // stay refused, and an injected resolver keeps working (tests point vendor names at fakes).
  const agent = options.fetch ? undefined : new Agent({ connect: { lookup: guardedLookup(resolve, allowPrivate) } });

  const send = async (url: URL, init: RequestInit): Promise<Response> => {
    if (options.fetch) {
      await assertResolvedAllowed(url, resolve, allowPrivate);
      return options.fetch(url, { ...init, redirect: 'manual' });
    }
    try {
      const answer = await undiciFetch(url, {
        method: init.method,
        headers: init.headers as Record<string, string> | [string, string][] | undefined,
        body: init.body as Uint8Array | string | null | undefined,
        signal: init.signal,
        redirect: 'manual',
        ...(agent ? { dispatcher: agent } : {}),
      });
      // Hand back the platform's own Response class: callers such as ky check `instanceof Response`.
      return new Response(NULL_BODY_STATUSES.has(answer.status) ? null : (answer.body as ReadableStream | null), {
        status: answer.status,
        statusText: answer.statusText,
        headers: [...answer.headers],
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (MarginError.isInstance(cause)) throw cause;
      throw error;
    }
  };

  const guarded = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const request = await toUrlAndInit(input, init);
    let url = assertEgressUrlAllowed(request.url, allowPrivate, label);
    for (let hops = 0; ; hops++) {
      const answer = await send(url, request.init);
      const location = answer.status >= 300 && answer.status < 400 ? answer.headers.get('location') : null;
      if (location === null) return answer;
      await answer.body?.cancel();
      const next = sameOriginTarget(url, location, answer.status, request.init, options.redirects);
      if (!next || hops >= MAX_REDIRECTS) {
        throw refused(
          `${url.host} answered with a redirect, which ${label} calls never follow to another host; use the final URL.`,
        );
      }
      url = assertEgressUrlAllowed(next, allowPrivate, label);
    }
  };
  return guarded as typeof fetch;
}

/**
 * Where a redirect may be followed to: only with `sameOrigin`, only to the same origin, and only
 * when the request can be sent again as it was (no body, or a 307/308 that keeps it).
 */
function sameOriginTarget(
  from: URL,
  location: string,
  status: number,
  init: RequestInit,
  redirects: EgressGuardOptions['redirects'],
): URL | undefined {
  if (redirects !== 'sameOrigin') return undefined;
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return undefined;
  }
  if (target.origin !== from.origin) return undefined;
  const method = (init.method ?? 'GET').toUpperCase();
  const resendable = method === 'GET' || method === 'HEAD' || status === 307 || status === 308;
  return resendable ? target : undefined;
}

async function assertResolvedAllowed(url: URL, resolve: typeof dnsLookup, allowPrivate: boolean): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return; // literals were checked with the URL
  const addresses = await new Promise<LookupAddress[]>((done, fail) =>
    resolve(host, { all: true }, (error, found) => (error ? fail(error) : done(found))),
  );
  const bad = addresses.find((entry) => refusedAddressClass(entry.address, allowPrivate));
  if (bad) throw privateAddress(url.hostname, bad.address);
}

/** Undici's fetch does not accept the platform's `Request` objects, so unpack them. */
async function toUrlAndInit(
  input: string | URL | Request,
  init: RequestInit,
): Promise<{ url: string; init: RequestInit }> {
  if (typeof input === 'string' || input instanceof URL) return { url: String(input), init };
  const hasBody = input.method !== 'GET' && input.method !== 'HEAD' && input.body !== null;
  return {
    url: input.url,
    init: {
      method: input.method,
      headers: [...input.headers],
      body: hasBody ? new Uint8Array(await input.arrayBuffer()) : undefined,
      signal: init.signal ?? input.signal,
    },
  };
}
