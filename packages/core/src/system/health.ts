import type { SystemDeps } from './system-deps.js';

export type CheckStatus = 'ok' | 'degraded' | 'unhealthy';

export interface HealthCheck {
  status: CheckStatus;
  detail?: string;
}

/** The database answers a trivial query. The message stays generic: no connection strings. */
export async function checkDatabase(deps: SystemDeps): Promise<HealthCheck> {
  try {
    await deps.storage.ping();
    return { status: 'ok' };
  } catch {
    return { status: 'unhealthy', detail: 'The database did not answer.' };
  }
}

/** The worst status of the checks decides the whole. */
export function overallStatus(checks: Record<string, HealthCheck>): CheckStatus {
  const statuses = Object.values(checks).map((c) => c.status);
  if (statuses.includes('unhealthy')) return 'unhealthy';
  if (statuses.includes('degraded')) return 'degraded';
  return 'ok';
}
