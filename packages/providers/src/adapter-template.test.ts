import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every adapter folder has the same shape (docs/plugins.md, "Adapter layout"), so whoever opens one
 * knows where the port's facts, the wire, the fake and the contract run are.
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));
const PORTS = [
  { folder: 'scm', facts: /-family\.ts$/, contract: 'describeScmProviderContract(' },
  { folder: 'ai', facts: /-kind\.ts$/, contract: 'describeAiProviderKindContract(' },
] as const;

const adapterFolders = (port: string) =>
  readdirSync(`${SRC}${port}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
    .map((entry) => entry.name);

describe('adapter template', () => {
  for (const port of PORTS) {
    for (const adapter of adapterFolders(port.folder)) {
      it(`${port.folder}/${adapter} has its door, its facts, its fake, recorded wire shapes and a contract run`, () => {
        const dir = `${SRC}${port.folder}/${adapter}/`;
        const files = readdirSync(dir);
        const missing = [
          files.includes('index.ts') ? null : 'index.ts (the adapter’s door)',
          files.some((f) => port.facts.test(f)) ? null : `a file matching ${port.facts} (the port’s facts)`,
          files.includes(`${adapter}-fake.ts`) ? null : `${adapter}-fake.ts (the HTTP-level fake)`,
          existsSync(`${dir}__fixtures__`) ? null : '__fixtures__/ (recorded wire shapes)',
          files.some((f) => f.endsWith('.test.ts') && readFileSync(`${dir}${f}`, 'utf8').includes(port.contract))
            ? null
            : `a test calling ${port.contract.slice(0, -1)}`,
        ].filter((item) => item !== null);
        expect(missing).toEqual([]);
      });
    }
  }
});
