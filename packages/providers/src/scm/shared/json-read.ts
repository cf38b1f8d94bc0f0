/**
 * Reading untrusted JSON (webhook bodies, loosely typed provider answers) without `any`: each helper
 * walks a path of keys and returns `undefined` as soon as a step is not what it should be.
 */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function walk(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function readString(value: unknown, ...path: string[]): string | undefined {
  const found = walk(value, path);
  return typeof found === 'string' ? found : undefined;
}

export function readNumber(value: unknown, ...path: string[]): number | undefined {
  const found = walk(value, path);
  return typeof found === 'number' && Number.isFinite(found) ? found : undefined;
}

export function readBoolean(value: unknown, ...path: string[]): boolean | undefined {
  const found = walk(value, path);
  return typeof found === 'boolean' ? found : undefined;
}

export function readObject(value: unknown, ...path: string[]): JsonObject | undefined {
  const found = walk(value, path);
  return isObject(found) ? found : undefined;
}
