export interface Health {
  status: 'ok' | 'degraded' | 'unhealthy';
  checks: Record<string, { status: string; detail?: string }>;
}

/**
 * `/api/healthz` is deliberately outside openapi.json (an operations endpoint, spec §Health), so the
 * SDK has no method for it; this is the console's only call that does not go through the SDK.
 * A 503 still carries the report.
 */
export async function fetchHealth(): Promise<Health> {
  const response = await fetch('/api/healthz', { headers: { accept: 'application/json' } });
  return (await response.json()) as Health;
}
