import { isIP } from 'node:net';
import { type AddressClass, classifyAddress, isMetadataHostName } from './address-policy.js';

/**
 * The save-time half of the egress guard (decisions.md, "Outbound egress guard"): a URL is checked
 * as written, so a connection that could never be called is refused when it is saved, with the
 * reason. It sees the scheme, IP literals and the host names that always mean this machine or a
 * cloud metadata service. Names that merely resolve to such addresses are the connect-time guard's
 * job: the adapters' guarded fetch checks the address it actually connects to.
 */
export type EgressRefusal = 'scheme' | 'credentials' | AddressClass;

const WHAT: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  linkLocal: 'a link-local address',
  metadata: 'a cloud metadata endpoint',
  reserved: 'a reserved address',
};

/**
 * Why the URL may not be saved, or undefined when it may. `url` must already be an absolute
 * http(s) URL; `allowPrivateEgress` admits plain http, loopback and private addresses. `problem`
 * reads after the field's name ("baseUrl must use https; …") and names the setting that would
 * allow it, where one exists.
 */
export function egressRefusalOf(
  url: URL,
  allowPrivateEgress: boolean,
): { reason: EgressRefusal; problem: string } | undefined {
  if (url.username || url.password) {
    return { reason: 'credentials', problem: "must not carry credentials; supply them as the connection's secret" };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const kind = hostClass(host);
  if (kind === 'metadata' || kind === 'linkLocal' || kind === 'reserved') {
    return { reason: kind, problem: `points at ${WHAT[kind]} (${host}), which Margin never calls` };
  }
  if (allowPrivateEgress) return undefined;
  if (url.protocol !== 'https:') {
    return {
      reason: 'scheme',
      problem: 'must use https; plain http is allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true',
    };
  }
  if (kind) {
    return {
      reason: kind,
      problem: `points at ${WHAT[kind]} (${host}); loopback and private addresses are allowed only with MARGIN_ALLOW_PRIVATE_EGRESS=true`,
    };
  }
  return undefined;
}

function hostClass(host: string): AddressClass | undefined {
  if (isIP(host) !== 0) return classifyAddress(host);
  if (isMetadataHostName(host)) return 'metadata';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  return undefined;
}
