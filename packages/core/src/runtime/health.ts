import type { MarginCore } from '../core.js';
import { type CheckStatus, type HealthCheck, overallStatus } from '../system/index.js';

/** What `/healthz` answers: the worst check decides `status`. */
export interface HealthReport {
  status: CheckStatus;
  checks: Record<string, HealthCheck>;
}

/** A component that can say whether it is working (the review worker, the crawl scheduler, ...). */
export interface HealthContributor {
  name: string;
  check(): HealthCheck;
}

/** The database (one trivial query) and each contributor's own view; nothing slower. */
export function createHealth(
  core: Pick<MarginCore, 'system'>,
  contributors: readonly HealthContributor[],
): () => Promise<HealthReport> {
  return async () => {
    const checks: Record<string, HealthCheck> = { database: await core.system.checkDatabase() };
    for (const c of contributors) checks[c.name] = c.check();
    return { status: overallStatus(checks), checks };
  };
}
