import { egressRefusalOf } from '../egress/index.js';
import { MarginError } from '../kernel/index.js';
import type { AuthenticationKind, ScmProviderFamilyV1 } from '../scm-provider/index.js';

/** The fields an authentication kind needs besides the secret; every other kind must leave them out. */
export const KIND_FIELDS = {
  oauthClientCredentials: ['oAuthTenantId', 'oAuthClientId'],
  appInstallation: ['hostedAppId', 'hostedAppInstallationId'],
  personalAccessToken: [],
} as const satisfies Record<AuthenticationKind, readonly string[]>;

export type KindField = (typeof KIND_FIELDS)[keyof typeof KIND_FIELDS][number];
export const ALL_KIND_FIELDS: readonly KindField[] = [
  ...KIND_FIELDS.oauthClientCredentials,
  ...KIND_FIELDS.appInstallation,
];

/**
 * The credential a connection request names must suit its family (decisions.md, "the support
 * matrix", derived from what each family declares), and come with the fields of its kind and no
 * other kind's.
 */
export function requireSupportedKind(
  family: ScmProviderFamilyV1,
  req: { authenticationKind: AuthenticationKind } & Partial<Record<KindField, unknown>>,
): void {
  const kind = req.authenticationKind;
  if (!family.authenticationKinds.includes(kind)) {
    throw MarginError.invalid([
      {
        path: 'authenticationKind',
        message: `${family.family} connections do not accept authenticationKind '${kind}'; accepted: ${family.authenticationKinds.join(', ')}.`,
      },
    ]);
  }
  const needed: readonly string[] = KIND_FIELDS[kind];
  const issues = ALL_KIND_FIELDS.flatMap((field) => {
    const given = req[field] !== undefined;
    if (needed.includes(field) && !given)
      return [{ path: field, message: `is required for authenticationKind '${kind}'` }];
    if (!needed.includes(field) && given)
      return [{ path: field, message: `is only for authenticationKind '${kindOfField(field)}'` }];
    return [];
  });
  if (issues.length > 0) throw MarginError.invalid(issues);
}

/** Wiki knowledge sources (`sourceKind: adoWiki`) only on a family that offers them. */
export function requireWikiSources(family: ScmProviderFamilyV1): void {
  if (family.capabilities.wikiSources) return;
  throw MarginError.validation(`sourceKind 'adoWiki' is only for suiteDevOps scopes; this scope is ${family.family}.`, [
    { path: 'sourceKind', message: `must be repository for ${family.family}` },
  ]);
}

/** The kind whose field this is, for "only for …" messages. */
export function kindOfField(field: KindField): AuthenticationKind {
  return (KIND_FIELDS.oauthClientCredentials as readonly string[]).includes(field)
    ? 'oauthClientCredentials'
    : 'appInstallation';
}

/** Why a URL cannot be a host or scope URL, or undefined when it can. */
export function httpUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an absolute http(s) URL';
  // Credentials belong in `secret`, where they are sealed; a URL is stored and shown in clear.
  if (url.username || url.password) return 'must not contain credentials; put them in secret';
  if (url.search || url.hash) return 'must not have a query or fragment';
  // Self-hosted SCM servers often live on private networks, so only the addresses no source-control
  // host has (metadata services, link-local, reserved) are refused; see the egress guard.
  return egressRefusalOf(url, true)?.problem;
}

/**
 * The URL as stored: scheme and host lower-cased by the URL parser, default port dropped, no trailing
 * slash. Call only on values `httpUrlProblem` accepted.
 */
export function canonicalUrl(value: string): string {
  const url = new URL(value);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** Two URLs that differ only in case or a trailing slash name the same host, organization or group. */
export function urlKey(value: string): string {
  return canonicalUrl(value).toLowerCase();
}
