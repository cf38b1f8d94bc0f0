import { BlockList, isIP } from 'node:net';

/**
 * The save-time half of the egress guard (decisions.md, "Outbound egress guard"): a `baseUrl` is
 * checked as written, so a profile that could never be called is refused when it is saved, with
 * the reason. It sees the scheme, IP literals and the host names that always mean this machine or
 * a cloud metadata service. Names that merely resolve to such addresses are the connect-time
 * guard's job: the adapters' guarded fetch checks the address it actually connects to.
 *
 * Cloud metadata endpoints are refused even with private egress allowed: no model lives there,
 * and they hand out the host's cloud credentials.
 */
export type EgressRefusal = 'scheme' | 'credentials' | 'loopback' | 'private' | 'linkLocal' | 'metadata' | 'reserved';

const METADATA_ADDRESSES = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '169.254.170.2']);
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

const ranges = (entries: Array<[string, number, 'ipv4' | 'ipv6']>) => {
  const list = new BlockList();
  for (const [net, prefix, family] of entries) list.addSubnet(net, prefix, family);
  return list;
};
const LOOPBACK = ranges([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const PRIVATE = ranges([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT
  ['fc00::', 7, 'ipv6'], // unique local
]);
const LINK_LOCAL = ranges([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const RESERVED = ranges([
  ['0.0.0.0', 8, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
]);

type AddressRefusal = Exclude<EgressRefusal, 'scheme' | 'credentials'>;

function classifyAddress(address: string): AddressRefusal | undefined {
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  // `::ffff:a.b.c.d` is matched against the IPv4 ranges by BlockList itself.
  if (METADATA_ADDRESSES.has(address.toLowerCase())) return 'metadata';
  if (LOOPBACK.check(address, family)) return 'loopback';
  if (PRIVATE.check(address, family)) return 'private';
  if (LINK_LOCAL.check(address, family)) return 'linkLocal';
  if (RESERVED.check(address, family)) return 'reserved';
  return undefined;
}

const WHAT: Record<AddressRefusal, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  metadata: 'a cloud metadata endpoint',
  reserved: 'a reserved address',
};

/**
 * Why the URL may not be saved, or undefined when it may. `url` must already be an absolute
 * http(s) URL. The message names the reason and the setting that would allow it.
 */
export function egressRefusalOf(
  url: URL,
  allowPrivateEgress: boolean,
): { reason: EgressRefusal; message: string } | undefined {
  if (url.username || url.password) {
    return { reason: 'credentials', message: 'baseUrl must not carry credentials; put the key in auth.apiKey.' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const literal = isIP(host) !== 0;
  const kind: AddressRefusal | undefined = literal
    ? classifyAddress(host)
    : METADATA_NAMES.has(host)
      ? 'metadata'
      : host === 'localhost' || host.endsWith('.localhost')
        ? 'loopback'
        : undefined;
  if (kind === 'metadata') {
    return {
      reason: kind,
      message: `baseUrl points at ${WHAT.metadata} (${host}), which AI connections may never call.`,
    };
  }
  if (allowPrivateEgress) return undefined;
  if (url.protocol !== 'https:') {
    return {
      reason: 'scheme',
      message: 'baseUrl must use https; plain http is allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true.',
    };
  }
  if (kind) {
    return {
      reason: kind,
      message: `baseUrl points at ${WHAT[kind]} (${host}); loopback, private, link-local and reserved addresses are allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true.`,
    };
  }
  return undefined;
}
