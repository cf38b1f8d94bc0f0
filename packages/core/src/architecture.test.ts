import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The same reader `pnpm deps` prints the graph with.
import { folderGraph, layersOf, readImports } from '../../../scripts/folder-graph.mjs';

const SRC = join(import.meta.dirname);

const PORTS = ['kernel', 'ai-model', 'scm-provider', 'provider-registry'];
const CAPABILITIES = [
  'audit',
  'licensing',
  'tenancy',
  'identity',
  'egress',
  'scm',
  'ai',
  'spend',
  'knowledge',
  'reviewing',
  'conversations',
  'triggers',
];

/**
 * Which folder may import which: one direction, bottom to top. The kernel uses nothing; the ports
 * use the kernel; the review engine uses only the ports, so it runs without the service; each
 * capability uses the ones above it in this table and never the other way. `storage` (the whole
 * port and its memory implementation), `runtime`, `testing` and the root entries sit on top.
 * A new edge is a design decision: add it here, where the tests check that it makes no cycle.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  kernel: [],
  egress: ['kernel'],
  'ai-model': ['kernel'],
  'scm-provider': ['kernel'],
  'provider-registry': ['kernel', 'ai-model', 'scm-provider'],
  'review-engine': PORTS,
  // Every capability that changes configuration records into the audit trail, so it sits first.
  audit: ['kernel'],
  licensing: ['kernel', 'audit'],
  tenancy: ['kernel', 'audit', 'licensing'],
  identity: ['kernel', 'egress', 'audit', 'licensing', 'tenancy'],
  scm: [...PORTS, 'egress', 'audit', 'licensing', 'tenancy'],
  ai: [...PORTS, 'egress', 'audit', 'licensing', 'tenancy'],
  // Indexing reuses the engine's skip rules, resolves the embedding model and writes the usage ledger.
  knowledge: [...PORTS, 'review-engine', 'audit', 'licensing', 'tenancy', 'scm', 'ai', 'spend'],
  spend: ['kernel', 'audit', 'licensing', 'tenancy'],
  reviewing: [...PORTS, 'review-engine', 'audit', 'licensing', 'tenancy', 'scm', 'ai', 'spend'],
  // Answers mentions: queues reviews and blocks through reviewing, asks a model, fences with the engine's helpers.
  conversations: [...PORTS, 'review-engine', 'audit', 'licensing', 'tenancy', 'scm', 'ai', 'spend', 'reviewing'],
  triggers: [...PORTS, 'audit', 'licensing', 'tenancy', 'scm', 'knowledge', 'reviewing', 'conversations'],
  system: ['kernel'],
  storage: [...PORTS, ...CAPABILITIES],
  'core.ts': [...PORTS, 'review-engine', 'system', 'storage', ...CAPABILITIES],
  runtime: [...PORTS, 'review-engine', 'system', 'core.ts', ...CAPABILITIES],
  testing: [...PORTS, 'review-engine', 'storage', ...CAPABILITIES],
  // The package's entry points (package.json `exports`) and test support.
  'index.ts': [...PORTS, 'review-engine', 'runtime', 'core.ts', ...CAPABILITIES],
  'spec.ts': [...PORTS, 'review-engine', 'storage', ...CAPABILITIES],
  'schemas.ts': ['kernel', ...CAPABILITIES],
  'memory.ts': ['storage'],
  'use-case-harness.ts': [...PORTS, 'review-engine', 'storage', 'testing', 'core.ts', ...CAPABILITIES],
};

const imports = readImports(SRC);

describe('the architecture of @margin/core', () => {
  it('names every folder and root file in its table', () => {
    const nodes = new Set(imports.flatMap((i) => [i.from, i.to]));
    expect([...nodes].filter((n) => !(n in MAY_IMPORT))).toEqual([]);
  });

  it('has no cycle in its table', () => {
    const table = new Map(Object.entries(MAY_IMPORT).map(([node, deps]) => [node, new Set(deps)]));
    expect(() => layersOf(table)).not.toThrow();
  });

  it('imports only in the directions the table allows, type imports included', () => {
    const upward = imports
      .filter((i) => !i.test && !MAY_IMPORT[i.from]?.includes(i.to))
      .map((i) => `${i.file} imports ${i.specifier} (${i.from} → ${i.to})`);
    expect(upward).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(() => layersOf(folderGraph(SRC))).not.toThrow();
  });

  it('enters another folder only through its door (its index.ts)', () => {
    const throughDoor = (i: (typeof imports)[number]) =>
      !i.target.includes('/') ||
      /^[^/]+\/index\.ts$/.test(i.target) ||
      // `@margin/core/schemas` exports every capability's models whole, so it cannot fall behind one.
      (i.from === 'schemas.ts' && /^[^/]+\/schemas\.ts$/.test(i.target));
    const deep = imports.filter((i) => !throughDoor(i)).map((i) => `${i.file} imports ${i.specifier}`);
    expect(deep).toEqual([]);
  });
});
