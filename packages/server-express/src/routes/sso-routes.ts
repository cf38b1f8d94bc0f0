import { type MarginCore, MarginError, SSO_ERROR_CODES, type SsoErrorCode } from '@margin/core';
import { SsoProviderList, SsoProvidersQuery } from '@margin/core/schemas';
import type { Request } from 'express';
import { z } from 'zod';
import type { HostContext } from '../host/host-context.js';
import { authPath, setRefreshCookie } from '../http/refresh-cookie.js';
import { publicRoute, type RouteResult, type RouteSpec } from '../http/route.js';
import { finishSignIn, type SsoContext, startSignIn } from '../http/sso/openid-connect.js';
import { SSO_STATE_TTL_SECONDS, setSsoStateCookie, takeSsoStateCookie } from '../http/sso/sso-state-cookie.js';
import { errors } from '../openapi/error-body.js';

const TAG = 'Single sign-on';

const StartParams = z.object({ providerId: z.string().min(1).max(100) });
const StartQuery = z.object({
  returnTo: z.string().max(2000).optional().meta({ description: 'A path on this site to land on after sign-in.' }),
});
const CallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(1024).optional(),
  error: z.string().max(1024).optional(),
});

/** Only a path on this site: `/x`, never `//host`, `/\host` or an absolute URL (no open redirect). */
export function sameOriginPath(returnTo: string | undefined): string {
  if (!returnTo || !/^\/(?![/\\])/.test(returnTo) || returnTo.includes('\\')) return '/';
  // Control characters (a CR/LF would split the Location header) are refused too.
  if ([...returnTo].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f)) return '/';
  return returnTo;
}

const redirect = (location: string): RouteResult => ({
  status: 302,
  headers: { Location: location, 'Cache-Control': 'no-store' },
});
const toSignIn = (code: SsoErrorCode) => redirect(`/sign-in?error=${code}`);

/** The callback's path as the browser sees it (`/api/auth/sso/callback` behind the gateway). */
const callbackPath = (req: Request) => `${authPath(req)}/sso/callback`;

/**
 * Registered at the identity provider as the redirect URI: under the public base URL when set (the
 * site's root for the gateway, the router's mount for an embedding app), else the request's origin.
 */
function redirectUri(req: Request, host: HostContext, sso: SsoContext): string {
  const base = host.config.publicBaseUrl;
  if (!base) return `${req.protocol}://${req.get('host')}${callbackPath(req)}`;
  return sso.publicBaseUrlIsMount ? `${base}/auth/sso/callback` : `${base}${callbackPath(req)}`;
}

/** Sign-in through an identity provider needs the host's `sso` setting; the log names the option. */
function unavailable(host: HostContext, stage: string): RouteResult {
  host.logger.warn(
    { stage },
    'single sign-on is not set up on this host: pass createMarginRouter the `sso` option ({ secrets }) to enable it (or set HostContext.sso with createSsoContext)',
  );
  return toSignIn('sso_unavailable');
}

/** A refusal core explains (its `ssoError`), or a protocol failure whose details stay in the log. */
function ssoErrorOf(error: unknown): SsoErrorCode {
  const code = MarginError.isInstance(error) ? error.details.ssoError : undefined;
  return (SSO_ERROR_CODES as readonly unknown[]).includes(code) ? (code as SsoErrorCode) : 'sso_failed';
}

/** The provider's settings; one refused (deleted, disabled) also loses what was discovered for it. */
async function ssoClientConfig(core: MarginCore, sso: SsoContext, providerId: string) {
  try {
    return await core.identity.ssoClientConfig(providerId);
  } catch (error) {
    sso.discovery.forget(providerId);
    throw error;
  }
}

function logFailure(host: HostContext, stage: string, providerId: string | undefined, error: unknown) {
  const e = error as { code?: unknown; name?: unknown };
  // The kind of failure only: an IdP's answer may carry tokens or personal data.
  host.logger.warn(
    { providerId, stage, reason: typeof e?.code === 'string' ? e.code : String(e?.name ?? 'Error') },
    'single sign-on failed',
  );
}

export const ssoRoutes: RouteSpec[] = [
  publicRoute({
    method: 'get',
    path: '/auth/sso/providers',
    group: 'identity',
    operationId: 'listSignInProviders',
    summary: 'The identity providers a tenant signs in with (by its slug), for the sign-in page',
    tag: TAG,
    query: SsoProvidersQuery,
    responses: {
      200: { description: 'Enabled providers; none for an unknown tenant.', schema: SsoProviderList },
      ...errors(400, 409),
    },
    handler: async ({ core, req, query }) => {
      const { providers } = await core.identity.listSignInProviders(query);
      const base = authPath(req);
      return {
        status: 200,
        body: {
          providers: providers.map((p) => ({ ...p, startUrl: `${base}/sso/${encodeURIComponent(p.id)}/start` })),
        },
      };
    },
  }),
  publicRoute({
    method: 'get',
    path: '/auth/sso/{providerId}/start',
    group: 'identity',
    operationId: 'ssoClientConfig',
    summary: 'Start signing in through an identity provider (a browser navigation: 302 to the provider)',
    tag: TAG,
    rateLimit: 'credentials',
    params: StartParams,
    query: StartQuery,
    responses: {
      302: { description: 'To the identity provider, or to `/sign-in?error=<code>`.' },
      ...errors(400, 429),
    },
    handler: async ({ core, host, req, res, params, query }) => {
      if (!host.sso) return unavailable(host, 'start');
      try {
        const provider = await ssoClientConfig(core, host.sso, params.providerId);
        const uri = redirectUri(req, host, host.sso);
        const started = await startSignIn(provider, uri, host.sso);
        setSsoStateCookie(req, res, host.sso.stateBox, callbackPath(req), {
          providerId: provider.providerId,
          state: started.state,
          nonce: started.nonce,
          codeVerifier: started.codeVerifier,
          redirectUri: uri,
          returnTo: sameOriginPath(query.returnTo),
          expiresAt: Date.now() + SSO_STATE_TTL_SECONDS * 1000,
        });
        return redirect(started.authorizationUrl);
      } catch (error) {
        logFailure(host, 'start', params.providerId, error);
        return toSignIn(ssoErrorOf(error));
      }
    },
  }),
  publicRoute({
    method: 'get',
    path: '/auth/sso/callback',
    group: 'identity',
    operationId: 'completeSsoSignIn',
    summary: 'Where the identity provider returns the browser: signs in and redirects to `returnTo`',
    tag: TAG,
    rateLimit: 'credentials',
    query: CallbackQuery,
    responses: {
      302: {
        description: 'Signed in (the refresh cookie is set) to `returnTo`, or to `/sign-in?error=<code>`.',
      },
      ...errors(400, 429),
    },
    handler: async ({ core, host, req, res, query }) => {
      if (!host.sso) return unavailable(host, 'callback');
      const attempt = takeSsoStateCookie(req, res, host.sso.stateBox, callbackPath(req), Date.now());
      if (!attempt) {
        logFailure(host, 'callback', undefined, { code: 'state_cookie_missing_or_stale' });
        return toSignIn('sso_failed');
      }
      if (query.error) {
        // The provider refused (the user cancelled, say): its own words are not shown.
        logFailure(host, 'callback', attempt.providerId, { code: 'provider_error' });
        return toSignIn('sso_failed');
      }
      try {
        const provider = await ssoClientConfig(core, host.sso, attempt.providerId);
        const current = new URL(attempt.redirectUri);
        current.search = new URL(req.originalUrl, 'http://callback').search;
        const claims = await finishSignIn(provider, current, attempt, host.sso);
        const session = await core.identity.completeSsoSignIn(attempt.providerId, claims);
        setRefreshCookie(req, res, session.refreshToken, session.refreshExpiresAt);
        return redirect(attempt.returnTo);
      } catch (error) {
        logFailure(host, 'callback', attempt.providerId, error);
        return toSignIn(ssoErrorOf(error));
      }
    },
  }),
];
