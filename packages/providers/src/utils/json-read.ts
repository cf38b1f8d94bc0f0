import { MarginError } from '@margin/core/spec';

/**
 * Reading untrusted JSON (webhook bodies, loosely typed provider answers) without `any`: each helper
 * walks a path of keys and returns `undefined` as soon as a step is not what it should be. Answers
 * are read leniently (providers add fields all the time) but never trusted: every value is checked
 * for its type before use. With no path, a reader checks the value itself: `readString(x)`.
 */
export type JsonObject = Record<string, unknown>;

/** A plain JSON object: not `null`, not an array. */
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

/** The string at `path`, e.g. `readString(body, 'error', 'message')`. */
export function readString(value: unknown, ...path: string[]): string | undefined {
  const found = walk(value, path);
  return typeof found === 'string' ? found : undefined;
}

/** The finite number at `path` (NaN and Infinity read as absent). */
export function readNumber(value: unknown, ...path: string[]): number | undefined {
  const found = walk(value, path);
  return typeof found === 'number' && Number.isFinite(found) ? found : undefined;
}

/** The boolean at `path`. */
export function readBoolean(value: unknown, ...path: string[]): boolean | undefined {
  const found = walk(value, path);
  return typeof found === 'boolean' ? found : undefined;
}

/** The object at `path`. */
export function readObject(value: unknown, ...path: string[]): JsonObject | undefined {
  const found = walk(value, path);
  return isObject(found) ? found : undefined;
}

/**
 * The array at `path`, or an empty one when it is absent or not an array: lists are only ever
 * iterated, and "no list" reads like "nothing in it". Check `Array.isArray` where absence matters.
 */
export function readArray(value: unknown, ...path: string[]): unknown[] {
  const found = walk(value, path);
  return Array.isArray(found) ? found : [];
}

/**
 * Readers for a body whose fields are required (a webhook delivery): a missing or mistyped field is
 * a 400 naming its path, e.g. "The GitLab delivery is malformed: object_attributes.iid must be an
 * integer." `path` defaults to the key.
 */
export function requiredFields(what: string) {
  const invalid = (path: string, message: string): MarginError =>
    MarginError.validation(`The ${what} is malformed: ${path} ${message}.`, [{ path, message }]);
  return {
    invalid,
    object(value: JsonObject, key: string, path = key): JsonObject {
      const found = value[key];
      if (!isObject(found)) throw invalid(path, 'must be an object');
      return found;
    },
    integer(value: JsonObject, key: string, path = key): number {
      const found = value[key];
      if (typeof found !== 'number' || !Number.isInteger(found)) throw invalid(path, 'must be an integer');
      return found;
    },
    text(value: JsonObject, key: string, path = key): string {
      const found = value[key];
      if (typeof found !== 'string' || !found) throw invalid(path, 'must be a non-empty string');
      return found;
    },
  };
}
