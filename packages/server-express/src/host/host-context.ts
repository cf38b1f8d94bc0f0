import type { HostConfig } from '../config.js';
import type { Logger } from '../observability/logger.js';
import type { HealthReport } from './health.js';

/** The settings the HTTP layer reads; an embedding host gives just these. */
export type HttpSettings = Pick<HostConfig, 'development' | 'authRateLimit' | 'publicBaseUrl'>;

/** Host-level services the HTTP layer may use besides the core's use cases. */
export interface HostContext {
  config: HttpSettings;
  logger: Logger;
  health(): Promise<HealthReport>;
}
