import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { MarginError } from '@margin/core';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The outbound guard for calls to AI providers (decisions.md, "Outbound egress guard"): https only,
 * no loopback, private, link-local or metadata addresses, no redirects — unless private egress is
 * allowed (local models, test fakes), which permits loopback/private addresses and plain http but
 * still never follows a redirect.
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
}

const FORBIDDEN = buildBlockList();

function buildBlockList(): BlockList {
  const list = new BlockList();
  const v4: Array<[string, number]> = [
    ['0.0.0.0', 8], // "this" network
    ['10.0.0.0', 8], // private
    ['100.64.0.0', 10], // carrier-grade NAT
    ['127.0.0.0', 8], // loopback
    ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
    ['172.16.0.0', 12], // private
    ['192.0.0.0', 24], // IETF protocol assignments
    ['192.0.2.0', 24], // documentation
    ['192.168.0.0', 16], // private
    ['198.18.0.0', 15], // benchmarking
    ['198.51.100.0', 24], // documentation
    ['203.0.113.0', 24], // documentation
    ['224.0.0.0', 4], // multicast
    ['240.0.0.0', 4], // reserved, broadcast
  ];
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  const v6: Array<[string, number]> = [
    ['::', 128], // unspecified
    ['::1', 128], // loopback
    ['64:ff9b:1::', 48], // local-use NAT64
    ['100::', 64], // discard
    ['2001:db8::', 32], // documentation
    ['fc00::', 7], // unique local (fd00::/8 included)
    ['fe80::', 10], // link-local
    ['fec0::', 10], // deprecated site-local
    ['ff00::', 8], // multicast
  ];
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  // IPv4-mapped addresses (::ffff:a.b.c.d) are matched against the IPv4 rules by BlockList itself.
  return list;
}

/** Whether an IP address is loopback, private, link-local, metadata or otherwise not public. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  if (FORBIDDEN.check(address, 'ipv6')) return true;
  const embedded = nat64Embedded(address);
  return embedded !== undefined && FORBIDDEN.check(embedded, 'ipv4');
}

/** The IPv4 address inside a well-known-prefix NAT64 address (64:ff9b::/96), which may be private. */
function nat64Embedded(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const [first, second, ...rest] = groups;
  if (first !== 0x64 || second !== 0xff9b || rest.slice(0, 4).some((g) => g !== 0)) return undefined;
  const high = groups[6] ?? 0;
  const low = groups[7] ?? 0;
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const parts = dotted[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = parts;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups].map((g) => Number.parseInt(g, 16));
  return groups.some((g) => Number.isNaN(g)) ? undefined : groups;
}

function refused(message: string): MarginError {
  return MarginError.provider('egressRefused', message);
}

/** The URL-level rules: scheme, and the address when the host is an IP literal. Throws when refused. */
export function assertEgressUrlAllowed(url: string | URL, allowPrivateEgress: boolean): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw refused('The AI endpoint URL is not a valid URL.');
  }
  const scheme = parsed.protocol;
  if (scheme !== 'https:' && !(allowPrivateEgress && scheme === 'http:')) {
    throw refused(
      scheme === 'http:'
        ? `Calls to ${parsed.host} must use https; plain http is allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true.`
        : `The URL scheme ${scheme} is not allowed for AI endpoints; use https.`,
    );
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivateEgress && isIP(host) !== 0 && isForbiddenAddress(host)) throw privateAddress(parsed.hostname);
  return parsed;
}

function privateAddress(host: string, address?: string): MarginError {
  const where = address && address !== host ? `${host} (${address})` : host;
  return refused(
    `Calls to ${where} are refused: loopback, private, link-local and metadata addresses are allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true.`,
  );
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for `net.connect` that refuses forbidden answers, so the check happens at connect time. */
function guardedLookup(resolve: typeof dnsLookup, allowPrivate: boolean) {
  return (hostname: string, options: object, callback: LookupCallback): void => {
    resolve(hostname, { ...(options as LookupAllOptions), all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = allowPrivate ? undefined : addresses.find((entry) => isForbiddenAddress(entry.address));
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
  const resolve = options.lookup ?? dnsLookup;
  // With private egress allowed the lookup still runs (it checks nothing then), so an injected
  // resolver keeps working, e.g. tests that point a vendor host name at a loopback fake.
  const agent = options.fetch ? undefined : new Agent({ connect: { lookup: guardedLookup(resolve, allowPrivate) } });

  const send = async (url: URL, init: RequestInit): Promise<Response> => {
    if (options.fetch) {
      if (!allowPrivate) await assertResolvedAllowed(url, resolve);
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
    const url = assertEgressUrlAllowed(request.url, allowPrivate);
    const answer = await send(url, request.init);
    if (answer.status >= 300 && answer.status < 400 && answer.headers.has('location')) {
      await answer.body?.cancel();
      throw refused(`${url.host} answered with a redirect, which AI calls never follow; use the final URL as baseUrl.`);
    }
    return answer;
  };
  return guarded as typeof fetch;
}

async function assertResolvedAllowed(url: URL, resolve: typeof dnsLookup): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return; // literals were checked with the URL
  const addresses = await new Promise<LookupAddress[]>((done, fail) =>
    resolve(host, { all: true }, (error, found) => (error ? fail(error) : done(found))),
  );
  const bad = addresses.find((entry) => isForbiddenAddress(entry.address));
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
