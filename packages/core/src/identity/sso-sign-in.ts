import { type Actor, MarginError } from '../kernel/index.js';
import { isCapabilityAvailable } from '../licensing/index.js';
import type { IdentityDeps } from './identity-deps.js';
import type { IdentityProviderRecord } from './identity-provider-record.js';
import { identityProviderSecretContext } from './identity-providers.js';
import { type SessionTokens, startSession } from './sessions.js';
import { tenantSignInRefusal } from './tenant-sign-in-policy.js';
import type { UserRecord } from './user-record.js';

/**
 * Why a single sign-on ended without a session. The host redirects to `/sign-in?error=<code>`; the
 * identity provider's own answer is never shown.
 */
export const SSO_ERROR_CODES = [
  'sso_unavailable',
  'sso_failed',
  'email_not_verified',
  'domain_not_allowed',
  'account_exists',
  'no_account',
  'account_disabled',
] as const;
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];

const MESSAGES: Record<SsoErrorCode, string> = {
  sso_unavailable: 'Single sign-on is not available here.',
  sso_failed: 'Single sign-on did not complete.',
  email_not_verified: 'The identity provider has not verified your email address.',
  domain_not_allowed: 'Your email domain may not sign in through this identity provider.',
  account_exists:
    'An account with your email address already exists; ask an administrator to link it to single sign-on.',
  no_account: 'You have no account here; ask an administrator to create one.',
  account_disabled: 'Your account or your organization is deactivated.',
};

/** A refused single sign-on: `unauthenticated`, carrying the code the sign-in page explains. */
export const ssoRefusal = (code: SsoErrorCode) =>
  new MarginError('unauthenticated', MESSAGES[code], { ssoError: code });

/** What the host's OpenID Connect client needs to start a sign-in. Keep `clientSecret` out of logs. */
export interface SsoClientConfig {
  providerId: string;
  issuerUrl: string;
  clientId: string;
  clientSecret: string | undefined;
  /** Changes with every edit of the provider, so a host may cache what it discovered from the issuer. */
  updatedAt: string;
}

/** An enabled provider of an active tenant, while the installation may use single sign-on. */
async function usableProvider(deps: IdentityDeps, providerId: string): Promise<IdentityProviderRecord> {
  if (!(await isCapabilityAvailable(deps, 'sso-authentication'))) throw ssoRefusal('sso_unavailable');
  const provider = await deps.storage.identityProviders.findById(providerId);
  if (!provider?.isEnabled) throw ssoRefusal('sso_unavailable');
  const tenant = await deps.storage.tenants.findById(provider.tenantId);
  if (!tenant?.isActive) throw ssoRefusal('account_disabled');
  return provider;
}

export async function ssoClientConfig(deps: IdentityDeps, providerId: string): Promise<SsoClientConfig> {
  const provider = await usableProvider(deps, providerId);
  return {
    providerId: provider.id,
    issuerUrl: provider.issuerUrl,
    clientId: provider.clientId,
    clientSecret: provider.sealedClientSecret
      ? deps.secrets.open(provider.sealedClientSecret, identityProviderSecretContext(provider.id))
      : undefined,
    updatedAt: provider.updatedAt,
  };
}

/** The claims of an ID token the host's OpenID Connect client has validated (signature, iss, aud, exp, nonce). */
export interface VerifiedSsoClaims {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/**
 * Signs in the user the provider vouched for. The user is found only by (issuer, subject): an
 * email never links an account, and an existing account with the same email is never taken over.
 * A new user is made only when the provider auto-creates users.
 */
export async function completeSsoSignIn(
  deps: IdentityDeps,
  providerId: string,
  claims: VerifiedSsoClaims,
): Promise<SessionTokens> {
  const provider = await usableProvider(deps, providerId);
  const email = claims.email;
  if (!email || !claims.emailVerified) throw ssoRefusal('email_not_verified');
  if (!provider.allowedEmailDomains.includes(domainOf(email))) throw ssoRefusal('domain_not_allowed');
  const now = deps.clock.now();

  const linked = await deps.storage.userIdentities.find(claims.issuer, claims.subject);
  let user: UserRecord | undefined;
  if (linked) {
    user = await deps.storage.users.findById(linked.userId);
  } else {
    const sameEmail = await deps.storage.users.findByEmail(email);
    const sameName = await deps.storage.users.findByUsername(email);
    if (sameEmail || sameName) throw ssoRefusal('account_exists');
    if (!provider.autoCreateUsers) throw ssoRefusal('no_account');
    user = await createSsoUser(deps, provider, { ...claims, email }, now);
  }
  if (!user?.isActive) throw ssoRefusal('account_disabled');
  if ((await tenantSignInRefusal(deps, user, 'session')) === 'tenantDeactivated') throw ssoRefusal('account_disabled');
  return startSession(deps, user, now);
}

/**
 * A user for a first sign-in: named by the email, without a password, a TenantUser of the
 * provider's tenant and, when the provider says so, ClientUser on each of its clients. The trail
 * names the new user as the actor: nobody else made the change.
 */
async function createSsoUser(
  deps: IdentityDeps,
  provider: IdentityProviderRecord,
  claims: VerifiedSsoClaims & { email: string },
  now: Date,
): Promise<UserRecord> {
  const at = now.toISOString();
  const user: UserRecord = {
    id: deps.ids.uuid(),
    username: claims.email,
    displayName: claims.name?.trim().slice(0, 200) || claims.email,
    passwordHash: null,
    email: claims.email,
    globalRole: 'user',
    isActive: true,
    createdAt: at,
    updatedAt: at,
  };
  const actor: Actor = { userId: user.id, username: user.username, globalRole: 'user', via: 'accessToken' };
  await deps.storage.transaction(async (tx) => {
    await tx.users.insert(user);
    await tx.userIdentities.insert({
      id: deps.ids.uuid(),
      userId: user.id,
      identityProviderId: provider.id,
      issuer: claims.issuer,
      subject: claims.subject,
      createdAt: at,
    });
    await tx.memberships.putTenantMember({
      tenantId: provider.tenantId,
      userId: user.id,
      role: 'TenantUser',
      createdAt: at,
    });
    let clients = 0;
    if (provider.defaultClientRole === 'ClientUser') {
      let cursor: string | undefined;
      do {
        const page = await tx.clients.list({ withinTenants: [provider.tenantId] }, { limit: 100, cursor });
        for (const client of page.items) {
          await tx.memberships.putClientMember({
            clientId: client.id,
            userId: user.id,
            role: 'ClientUser',
            createdAt: at,
          });
          clients++;
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
    }
    await deps.audit.record(tx, actor, {
      tenantId: provider.tenantId,
      verb: 'created',
      resourceType: 'user',
      resourceId: user.id,
      summary: `created user '${user.username}' at first sign-in through identity provider '${provider.displayName}'${
        clients > 0 ? ` (ClientUser on ${clients} clients)` : ''
      }`,
    });
  });
  deps.events.emit('user.created', { userId: user.id, username: user.username });
  return user;
}
