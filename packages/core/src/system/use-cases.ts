import { checkDatabase, type HealthCheck } from './health.js';
import { verifySecretsKey } from './secrets-key-check.js';
import type { SystemDeps } from './system-deps.js';

/** For hosts: health and start-up checks. */
export interface SystemUseCases {
  checkDatabase(): Promise<HealthCheck>;
  /** Refuses (503) a secrets key other than the one the database was written with. */
  verifySecretsKey(): Promise<void>;
}

export function createSystemUseCases(deps: SystemDeps): SystemUseCases {
  return {
    checkDatabase: () => checkDatabase(deps),
    verifySecretsKey: () => verifySecretsKey(deps),
  };
}
