import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  /** Counts and times one answered request. `route` is the route template, keeping cardinality bounded. */
  observe(method: string, route: string, status: number, seconds: number): void;
}

/** One registry per app, so several apps in one process (tests, embedding) never collide. */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'margin_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'margin_http_requests_total',
    help: 'HTTP requests answered.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'margin_http_request_duration_seconds',
    help: 'Time to answer HTTP requests.',
    labelNames,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  return {
    registry,
    observe(method, route, status, seconds) {
      const labels = { method, route, status };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
}
