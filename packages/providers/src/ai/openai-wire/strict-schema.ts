import { readArray, readObject } from '../../utils/index.js';

/**
 * Whether a JSON Schema meets OpenAI's strict structured-output rules: every object closes
 * (`additionalProperties: false`) and lists every property as required. Strict mode rejects other
 * schemas outright, so those are sent with `strict: false` (best effort, validated by the caller).
 */
export function isStrictCompatible(schema: unknown, depth = 0): boolean {
  const node = readObject(schema);
  if (!node) return true;
  if (depth > 32) return false;
  const properties = readObject(node.properties);
  if (node.type === 'object' || properties) {
    if (node.additionalProperties !== false) return false;
    const required = new Set(readArray(node.required));
    for (const [name, child] of Object.entries(properties ?? {})) {
      if (!required.has(name) || !isStrictCompatible(child, depth + 1)) return false;
    }
  }
  for (const key of ['items', 'not']) {
    if (node[key] !== undefined && !isStrictCompatible(node[key], depth + 1)) return false;
  }
  for (const key of ['anyOf', 'allOf', 'oneOf', 'prefixItems']) {
    if (!readArray(node[key]).every((child) => isStrictCompatible(child, depth + 1))) return false;
  }
  for (const defs of [readObject(node.$defs), readObject(node.definitions)]) {
    if (defs && !Object.values(defs).every((child) => isStrictCompatible(child, depth + 1))) return false;
  }
  return true;
}
