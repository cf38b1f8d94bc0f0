/**
 * The recorded wire payloads a fake serves, imported as JSON modules so the built
 * `@margin/providers/testing` carries them (no file is read at run time). Each call hands out a
 * fresh copy: a fake may change what it was given without changing the next fake's.
 */
export function fixtureSet<const M extends Record<string, unknown>>(fixtures: M) {
  return <T = unknown>(name: keyof M & string): T => structuredClone(fixtures[name]) as T;
}
