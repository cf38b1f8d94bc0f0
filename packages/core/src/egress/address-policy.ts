import { BlockList, isIP } from 'node:net';

/**
 * One classification of IP addresses for the outbound egress guard (decisions.md, "Outbound
 * egress guard"), shared by the save-time URL check here in core and the connect-time check in the
 * adapters' guarded fetch, so the two can never disagree about what is private.
 */
export type AddressClass = 'loopback' | 'private' | 'linkLocal' | 'metadata' | 'reserved';

/** Cloud metadata services: they hand out the host's cloud credentials, so nothing may call them. */
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
// BlockList matches IPv4-mapped addresses (::ffff:a.b.c.d) against the IPv4 rules by itself.
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
  ['64:ff9b:1::', 48, 'ipv6'], // local-use NAT64
]);
const LINK_LOCAL = ranges([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const RESERVED = ranges([
  ['0.0.0.0', 8, 'ipv4'], // "this" network
  ['192.0.0.0', 24, 'ipv4'], // IETF protocol assignments
  ['192.0.2.0', 24, 'ipv4'], // documentation
  ['198.18.0.0', 15, 'ipv4'], // benchmarking
  ['198.51.100.0', 24, 'ipv4'], // documentation
  ['203.0.113.0', 24, 'ipv4'], // documentation
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved, broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['100::', 64, 'ipv6'], // discard
  ['2001:db8::', 32, 'ipv6'], // documentation
  ['fec0::', 10, 'ipv6'], // deprecated site-local
  ['ff00::', 8, 'ipv6'], // multicast
]);

/**
 * What kind of non-public address this is, or undefined for a public one. Anything that is not an
 * IP address at all counts as reserved: callers refuse rather than guess.
 */
export function classifyAddress(address: string): AddressClass | undefined {
  const text = address.toLowerCase();
  const version = isIP(text);
  if (version === 0) return 'reserved';
  if (METADATA_ADDRESSES.has(text)) return 'metadata';
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (LOOPBACK.check(text, family)) return 'loopback';
  if (PRIVATE.check(text, family)) return 'private';
  if (LINK_LOCAL.check(text, family)) return 'linkLocal';
  if (RESERVED.check(text, family)) return 'reserved';
  const embedded = version === 6 ? nat64Embedded(text) : undefined;
  return embedded === undefined ? undefined : classifyAddress(embedded);
}

/** Whether a host name always means a cloud metadata service. */
export function isMetadataHostName(host: string): boolean {
  return METADATA_NAMES.has(host.toLowerCase());
}

/**
 * The class that makes this address refused, or undefined when it may be called. Private egress
 * (`MARGIN_ALLOW_PRIVATE_EGRESS`) admits loopback and private addresses only: link-local, reserved
 * and metadata addresses stay refused, as decisions.md lists.
 */
export function refusedAddressClass(address: string, allowPrivateEgress: boolean): AddressClass | undefined {
  const kind = classifyAddress(address);
  if (allowPrivateEgress && (kind === 'loopback' || kind === 'private')) return undefined;
  return kind;
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

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or undefined. */
export function expandIpv6(address: string): number[] | undefined {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
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
