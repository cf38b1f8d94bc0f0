import { readFileSync } from 'node:fs';
import { createAesGcmSecretBox, createMarginCore } from '@margin/core';
import { createMemoryStorage } from '@margin/core/memory';
import type { Express } from 'express';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createApiApp } from '../http/api-app.js';
import { createLogger } from '../observability/logger.js';
import { createHttpMetrics } from '../observability/metrics.js';
import { API_ROUTES } from '../routes/index.js';

const OPERATIONAL = new Set(['/healthz', '/livez', '/metrics']);

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[]; mountPath?: string };
}

function servedRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = (prefix + (layer.route.path === '/' && prefix ? '' : layer.route.path)).replace(/:(\w+)/g, '{$1}');
        if (OPERATIONAL.has(path) || path.startsWith('/swagger')) continue;
        for (const method of Object.keys(layer.route.methods)) out.push(`${method.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, prefix + (layer.handle.mountPath ?? ''));
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, '');
  return out.sort();
}

function documentedRoutes(): string[] {
  const document = JSON.parse(readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

describe('openapi.json', () => {
  it('documents exactly the routes the API app serves, and nothing else', () => {
    const core = createMarginCore({
      storage: createMemoryStorage(),
      secrets: createAesGcmSecretBox(Buffer.alloc(32)),
      auth: { jwtSecret: 'x'.repeat(32) },
    });
    const config = loadConfig({});
    const app = createApiApp(core, {
      host: { config, logger: createLogger({ level: 'silent' }), health: async () => ({ status: 'ok', checks: {} }) },
      metrics: createHttpMetrics(),
    });
    expect(servedRoutes(app)).toEqual(documentedRoutes());
  });

  it('leaves out the operational endpoints and the /api prefix', () => {
    const paths = documentedRoutes().map((r) => r.split(' ')[1] ?? '');
    expect(paths.filter((p) => OPERATIONAL.has(p) || p.startsWith('/api/'))).toEqual([]);
  });

  it('names every operation after the use case it calls: core.<x-margin-group>.<operationId>', () => {
    const core = createMarginCore({
      storage: createMemoryStorage(),
      secrets: createAesGcmSecretBox(Buffer.alloc(32)),
      auth: { jwtSecret: 'x'.repeat(32) },
    });
    const missing = API_ROUTES.filter((spec) => {
      const group = core[spec.group] as unknown as Record<string, unknown>;
      return typeof group[spec.operationId] !== 'function';
    }).map((spec) => `${spec.group}.${spec.operationId}`);
    expect(missing).toEqual([]);
    const ids = API_ROUTES.map((spec) => spec.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
