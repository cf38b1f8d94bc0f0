import { type CheckStatus, type HealthCheck, type MarginCore, overallStatus } from '@margin/core';

export interface HealthReport {
  status: CheckStatus;
  checks: Record<string, HealthCheck>;
}

/** A component that can say whether it is working (the review worker, the crawl scheduler, ...). */
export interface HealthContributor {
  name: string;
  check(): HealthCheck;
}

export function createHealth(
  core: MarginCore,
  contributors: readonly HealthContributor[],
): () => Promise<HealthReport> {
  return async () => {
    const checks: Record<string, HealthCheck> = { database: await core.system.checkDatabase() };
    for (const c of contributors) checks[c.name] = c.check();
    return { status: overallStatus(checks), checks };
  };
}
