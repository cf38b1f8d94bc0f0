import type { HostConfig } from '../config.js';
import type { Logger } from '../observability/logger.js';
import type { HealthReport } from './health.js';

/** Host-level services the HTTP layer may use besides the core's use cases. */
export interface HostContext {
  config: HostConfig;
  logger: Logger;
  health(): Promise<HealthReport>;
}
