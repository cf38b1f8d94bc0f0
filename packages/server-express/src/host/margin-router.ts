import type { MarginLogger, MarginService } from '@margin/core';
import type { SecretBox } from '@margin/core/spec';
import type { Router } from 'express';
import { DEFAULT_AUTH_RATE_LIMIT } from '../config.js';
import { createApiRouter } from '../http/api-app.js';
import { createSsoContext } from '../http/sso/openid-connect.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createHttpMetrics, type HttpMetrics } from '../observability/metrics.js';
import type { HostContext, HttpSettings } from './host-context.js';

export interface MarginRouterOptions {
  /**
   * The public URL of where the router is mounted (e.g. `https://portal.example.com/review-api`);
   * webhook configurations build their listener URLs from it. Without it they carry only the path,
   * with a warning (never the request's Host header).
   */
  publicBaseUrl?: string | undefined;
  /** Serve Swagger UI at `<mount>/swagger`. Default false. */
  development?: boolean | undefined;
  /** The per-IP limit on credential endpoints. Default 20 per 60 s, as in the reference host. */
  authRateLimit?: HttpSettings['authRateLimit'] | undefined;
  /** Lets non-loopback callers read `<mount>/metrics` with `Authorization: Bearer <token>`. */
  metricsToken?: string | undefined;
  /** Request lines and request errors. Default: the service's logger when it is pino, else a new one on stdout. */
  logger?: Logger | undefined;
  /** Default: a registry of the router's own. */
  metrics?: HttpMetrics | undefined;
  /**
   * Enables single sign-on (OpenID Connect) through the identity providers tenants configure.
   * `secrets` is the `SecretBox` the service was created with: it seals each sign-in attempt's
   * state cookie. The redirect URI to register at the identity provider is
   * `<publicBaseUrl>/auth/sso/callback` (without `publicBaseUrl`, the request's origin and path).
   * Without this option the SSO routes send the browser to `/sign-in?error=sso_unavailable`.
   */
  sso?: MarginRouterSsoOptions | undefined;
}

export interface MarginRouterSsoOptions {
  secrets: SecretBox;
  /** Let issuers on loopback/private addresses and plain http through (a lab issuer). Default false. */
  allowPrivateEgress?: boolean | undefined;
}

/**
 * Margin's API as an Express router on a running service: every path of `openapi.json` (bare), the
 * webhook receiver, `/healthz` (the service's health), `/livez` and `/metrics`. Mount it under any
 * prefix of an existing app; it follows that app's `trust proxy` (Express's default trusts none).
 */
export function createMarginRouter(service: MarginService, options: MarginRouterOptions = {}): Router {
  const logger = options.logger ?? (isPino(service.logger) ? service.logger : createLogger({ level: 'info' }));
  const host = createHostContext(
    service,
    {
      development: options.development === true,
      authRateLimit: options.authRateLimit ?? DEFAULT_AUTH_RATE_LIMIT,
      publicBaseUrl: options.publicBaseUrl?.replace(/\/+$/, ''),
      metricsToken: options.metricsToken,
    },
    logger,
  );
  if (options.sso) {
    host.sso = createSsoContext({
      stateBox: options.sso.secrets,
      allowPrivateEgress: options.sso.allowPrivateEgress === true,
      publicBaseUrlIsMount: true,
    });
  }
  return createApiRouter(service.core, { host, metrics: options.metrics ?? createHttpMetrics() });
}

/** What the HTTP layer reads of a service, with the host's settings and logger. */
export function createHostContext(
  service: Pick<MarginService, 'health'>,
  config: HttpSettings,
  logger: Logger,
): HostContext {
  return { config, logger, health: () => service.health() };
}

function isPino(logger: MarginLogger): logger is Logger {
  const l = logger as Partial<Logger>;
  return typeof l.child === 'function' && typeof l.isLevelEnabled === 'function';
}
