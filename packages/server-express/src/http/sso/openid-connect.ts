import type { SsoClientConfig, VerifiedSsoClaims } from '@margin/core';
import type { SecretBox } from '@margin/core/spec';
import { createEgressGuardedFetch } from '@margin/providers/utils';
import * as oidc from 'openid-client';
import { DiscoveryCache } from './discovery-cache.js';

/**
 * The OpenID Connect relying party, on `openid-client`: discovery from the issuer, authorization code
 * with PKCE (S256), state and nonce. The library validates the ID token (signature by the issuer's
 * JWKS, `iss`, `aud`, `exp`, `nonce`); Margin's own rules (verified email, domain, linking) are
 * core's. Every call to the issuer goes through the egress guard, as the AI and SCM adapters' do.
 */
export interface OpenIdConnectOptions {
  allowPrivateEgress: boolean;
}

/** What a host gives its SSO routes: see `createSsoContext`. */
export interface SsoContext extends OpenIdConnectOptions {
  /** Seals each sign-in attempt's state cookie. */
  stateBox: SecretBox;
  /**
   * Whether `publicBaseUrl` names where the API router is mounted (an embedding app's
   * `createMarginRouter`) rather than the site's root with the API under `/api` (the gateway).
   */
  publicBaseUrlIsMount: boolean;
  /** Each identity provider's discovered configuration, shared by the host's sign-ins. */
  discovery: DiscoveryCache<oidc.Configuration>;
}

export function createSsoContext(options: Omit<SsoContext, 'discovery'>): SsoContext {
  return { ...options, discovery: new DiscoveryCache((provider) => discover(provider, options)) };
}

const SCOPE = 'openid email profile';
const TIMEOUT_SECONDS = 10;

async function discover(provider: SsoClientConfig, options: OpenIdConnectOptions): Promise<oidc.Configuration> {
  const guarded = createEgressGuardedFetch({
    allowPrivateEgress: options.allowPrivateEgress,
    label: 'identity provider',
    redirects: 'refuse',
  });
  const issuer = new URL(provider.issuerUrl);
  const config = await oidc.discovery(
    issuer,
    provider.clientId,
    provider.clientSecret,
    provider.clientSecret ? oidc.ClientSecretPost(provider.clientSecret) : oidc.None(),
    {
      [oidc.customFetch]: (url, init) => guarded(url, init as RequestInit),
      timeout: TIMEOUT_SECONDS,
      execute: [
        // openid-client trusts an ID token from the token endpoint on TLS alone; Margin checks its
        // signature against the issuer's JWKS too (and so also over plain http to a lab issuer).
        oidc.enableNonRepudiationChecks,
        // Plain http only where the egress rules allow it (MARGIN_ALLOW_PRIVATE_EGRESS: a lab issuer).
        ...(issuer.protocol === 'http:' && options.allowPrivateEgress ? [oidc.allowInsecureRequests] : []),
      ],
    },
  );
  return config;
}

export interface StartedSignIn {
  authorizationUrl: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function startSignIn(
  provider: SsoClientConfig,
  redirectUri: string,
  sso: SsoContext,
): Promise<StartedSignIn> {
  const config = await sso.discovery.get(provider);
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { authorizationUrl: url.href, state, nonce, codeVerifier };
}

/** Exchanges the code and returns the validated ID token's claims; throws on any mismatch. */
export async function finishSignIn(
  provider: SsoClientConfig,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
  sso: SsoContext,
): Promise<VerifiedSsoClaims> {
  const config = await sso.discovery.get(provider);
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: expected.codeVerifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    // The code is spent, so this attempt fails; the next one discovers again and so fetches the
    // issuer's keys afresh (openid-client keeps them with the configuration, and refetches on an
    // unknown key only once they are a minute old).
    if (suggestsRotatedKeys(error)) sso.discovery.forget(provider.providerId);
    throw error;
  }
  const claims = tokens.claims();
  if (!claims) throw new Error('The token response carried no ID token.');
  return {
    issuer: claims.iss,
    subject: claims.sub,
    email: typeof claims.email === 'string' ? claims.email : undefined,
    emailVerified: claims.email_verified === true,
    name: typeof claims.name === 'string' ? claims.name : undefined,
  };
}

/** No key of the issuer's set fits the ID token, or the one that does fails its signature. */
export function suggestsRotatedKeys(error: unknown): boolean {
  // openid-client wraps oauth4webapi's failure, keeping its code and the original as the cause.
  const e = error as { code?: unknown; cause?: { message?: unknown } } | undefined;
  return (
    e?.code === 'OAUTH_KEY_SELECTION_FAILED' ||
    (e?.code === 'OAUTH_INVALID_RESPONSE' && e.cause?.message === 'JWT signature verification failed')
  );
}
