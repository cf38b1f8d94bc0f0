import { type JsonObject, readArray, readObject } from '../../utils/index.js';

const KEPT = [
  'description',
  'title',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
];
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/**
 * JSON Schema → the OpenAPI 3.0 subset Gemini's `responseSchema` and function `parameters` take:
 * `type` arrays and `{type: "null"}` branches become `nullable`, `const` becomes a one-value
 * `enum` (enums are strings), local `$ref`s are inlined, and keywords Gemini refuses
 * (`additionalProperties`, `$schema`, `default`, unknown formats) are dropped. Property order is
 * kept with `propertyOrdering`, since Gemini otherwise orders keys alphabetically.
 */
export function toGeminiSchema(schema: unknown): JsonObject {
  const root = readObject(schema) ?? {};
  const defs = { ...readObject(root.definitions), ...readObject(root.$defs) };
  return convert(root, defs, 0);
}

function convert(node: JsonObject, defs: JsonObject, depth: number): JsonObject {
  if (depth > 24) return { type: 'object' };
  const ref = typeof node.$ref === 'string' ? /^#\/(?:\$defs|definitions)\/(.+)$/.exec(node.$ref)?.[1] : undefined;
  const target = ref !== undefined ? readObject(defs[ref]) : undefined;
  if (target) return convert({ ...target, ...withoutRef(node) }, defs, depth + 1);

  const out: JsonObject = {};
  const branches = [...readArray(node.anyOf), ...readArray(node.oneOf)]
    .map((item) => readObject(item))
    .filter((b): b is JsonObject => !!b);
  const nullBranch = branches.some((b) => b.type === 'null');
  const others = branches.filter((b) => b.type !== 'null');
  if (branches.length > 0) {
    if (nullBranch) out.nullable = true;
    if (others.length === 1 && others[0]) Object.assign(out, convert({ ...others[0], ...pick(node) }, defs, depth + 1));
    else if (others.length > 1) out.anyOf = others.map((b) => convert(b, defs, depth + 1));
  }

  let type = node.type;
  if (Array.isArray(type)) {
    if (type.includes('null')) out.nullable = true;
    type = type.find((t) => t !== 'null');
  }
  if (node.const !== undefined) {
    out.type = 'string';
    out.enum = [String(node.const)];
  } else if (Array.isArray(node.enum)) {
    out.type = 'string';
    out.enum = node.enum.filter((v) => v !== null).map(String);
    if (node.enum.includes(null)) out.nullable = true;
  } else if (typeof type === 'string') out.type = type;

  for (const key of KEPT) if (node[key] !== undefined) out[key] = node[key];
  const format = typeof node.format === 'string' ? node.format : undefined;
  if (format && typeof out.type === 'string' && FORMATS[out.type]?.includes(format)) out.format = format;

  const properties = readObject(node.properties);
  if (properties) {
    out.type ??= 'object';
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, convert(readObject(child) ?? {}, defs, depth + 1)]),
    );
    out.propertyOrdering = Object.keys(properties);
    const required = readArray(node.required).filter((name) => typeof name === 'string' && name in properties);
    if (required.length > 0) out.required = required;
  }
  const items = readObject(node.items);
  if (items) out.items = convert(items, defs, depth + 1);
  return out;
}

function withoutRef(node: JsonObject): JsonObject {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

/** Annotations on a wrapper that still apply to its single non-null branch. */
function pick(node: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of ['description', 'title']) if (node[key] !== undefined) out[key] = node[key];
  return out;
}
