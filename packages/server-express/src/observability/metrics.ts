import { collectDefaultMetrics, Histogram, type LabelValues, Registry } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  /** Times one answered request. `route` is the route template, keeping cardinality bounded. */
  observe(method: string, route: string, status: number, seconds: number): void;
}

type Labels = 'method' | 'route' | 'status';

/**
 * One registry per app, so several apps in one process (tests, embedding) never collide. One
 * histogram serves both request counts (its `_count`) and durations; its labelled children are kept
 * so a request costs a map lookup, not a label hash.
 */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'margin_' });
  const duration = new Histogram<Labels>({
    name: 'margin_http_request_duration_seconds',
    help: 'Time to answer HTTP requests; its _count is the number of requests.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers: [registry],
  });
  const children = new Map<string, ReturnType<typeof duration.labels>>();
  return {
    registry,
    observe(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = duration.labels({ method, route, status } as LabelValues<Labels>);
        children.set(key, child);
      }
      child.observe(seconds);
    },
  };
}
