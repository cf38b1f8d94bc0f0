import { readFileSync } from 'node:fs';

/**
 * Reads `__fixtures__/<name>.json` beside the calling test (`import.meta.url` of the test), for
 * payloads only tests use (webhook deliveries, error bodies). Test-only: it reads source paths.
 */
export function fixtureReader(testUrl: string) {
  return <T = Record<string, unknown>>(name: string): T =>
    JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.json`, testUrl), 'utf8')) as T;
}
