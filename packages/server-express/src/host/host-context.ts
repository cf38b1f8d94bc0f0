import type { HealthReport } from '@margin/core';
import type { HostConfig } from '../config.js';
import type { SsoContext } from '../http/sso/openid-connect.js';
import type { Logger } from '../observability/logger.js';

/**
 * The settings the HTTP layer reads; an embedding host gives just these. `trustProxy` applies to the
 * apps Margin builds (gateway, `createApiApp`); a router mounted in another app follows that app's.
 */
export type HttpSettings = Pick<HostConfig, 'development' | 'authRateLimit' | 'publicBaseUrl'> &
  Partial<Pick<HostConfig, 'trustProxy' | 'metricsToken'>>;

/** Host-level services the HTTP layer may use besides the core's use cases. */
export interface HostContext {
  config: HttpSettings;
  /** Where this host listens (`http://127.0.0.1:8080`), once it does; set by the reference host. */
  listenUrl?: string | undefined;
  logger: Logger;
  health(): Promise<HealthReport>;
  /**
   * Single sign-on needs a key to seal each attempt's state cookie and the egress rules for calls
   * to issuers: set by the reference host, and by `createMarginRouter` given its `sso` option.
   * Without it SSO sign-in is unavailable.
   */
  sso?: SsoContext | undefined;
}
