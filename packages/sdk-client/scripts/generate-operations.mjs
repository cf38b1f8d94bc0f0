// Writes src/generated/operations.ts from the root openapi.json: one typed method per operationId,
// grouped by the operation's `x-margin-group` (the core group whose use case has the same name), so
// every endpoint has an SDK method by construction: `client.<group>.<operationId>(...)`.
//
// A method takes the path parameters in path order, then the JSON body or the query (no operation
// has both), then optional call options (headers, signal). It answers the 2xx body and throws the
// `MarginApiError` subclass of anything else, like `unwrap`. One rule is generated too: when some
// non-2xx answers of an operation carry the same schema as its 2xx answer, they are outcomes, not
// errors, and come back as data (by-coordinates submissions).
//
// Run by `pnpm generate` after openapi-typescript has written src/generated/schema.ts.
import { readFileSync, writeFileSync } from 'node:fs';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const source = new URL('../../../openapi.json', import.meta.url);
const target = new URL('../src/generated/operations.ts', import.meta.url);

const document = JSON.parse(readFileSync(source, 'utf8'));
const schemas = document.components?.schemas ?? {};
const errorBodyKeys = new Set(Object.keys(schemas.ErrorBody?.properties ?? {}));

const groups = new Map();
const seen = new Set();
for (const [path, item] of Object.entries(document.paths)) {
  for (const method of METHODS) {
    const operation = item[method];
    if (!operation) continue;
    const id = operation.operationId;
    const group = operation['x-margin-group'];
    if (!id || !group) throw new Error(`${method.toUpperCase()} ${path} needs an operationId and an x-margin-group.`);
    if (seen.has(id)) throw new Error(`operationId ${id} is used twice.`);
    seen.add(id);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(describe(path, method, operation, [...(item.parameters ?? [])]));
  }
}

function successOf(operation) {
  return Object.entries(operation.responses ?? {}).find(([status]) => status.startsWith('2'));
}

function describe(path, method, operation, shared) {
  const parameters = [...shared, ...(operation.parameters ?? [])];
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const pathParameters = pathNames.map((name) => {
    const declared = parameters.find((p) => p.in === 'path' && p.name === name);
    if (!declared) throw new Error(`${operation.operationId}: path parameter ${name} is not declared.`);
    const plain = declared.schema?.type === 'string' && !declared.schema.enum;
    return { name, plain };
  });
  const query = parameters.filter((p) => p.in === 'query');
  const body = operation.requestBody?.content?.['application/json'];
  if (operation.requestBody && !body) throw new Error(`${operation.operationId}: only JSON bodies are supported.`);
  if (body && query.length > 0) throw new Error(`${operation.operationId}: a body and a query together.`);
  return {
    id: operation.operationId,
    path,
    method,
    summary: operation.summary,
    answer: successOf(operation)?.[1].description,
    parameters: [...pathParameters.map((p) => parameters.find((d) => d.in === 'path' && d.name === p.name)), ...query]
      .filter((p) => p.description)
      .map((p) => ({ name: p.in === 'query' ? `query.${p.name}` : p.name, description: p.description })),
    errors: Object.entries(operation.responses ?? {})
      .filter(([status]) => !status.startsWith('2'))
      .map(([status, response]) => ({ status: Number(status), description: response.description })),
    pathParameters,
    query: query.length === 0 ? undefined : { required: query.some((p) => p.required) },
    body: body ? { required: operation.requestBody.required !== false } : undefined,
    outcomes: outcomes(operation),
  };
}

/** The `MarginApiError` subclass `errorFromResponse` (src/errors.ts) throws for a status. */
function errorClassOf(status) {
  const named = { 400: 'ValidationError', 401: 'AuthenticationError', 403: 'PermissionError', 404: 'NotFoundError' };
  if (named[status]) return named[status];
  if (status === 409) return 'ConflictError';
  if (status === 429) return 'RateLimitError';
  if (status === 502) return 'ProviderError';
  return status >= 500 ? 'ServerError' : 'MarginApiError';
}

/** Non-2xx statuses whose body is the 2xx schema, with the keys that tell such a body from an error body. */
function outcomes(operation) {
  const refOf = (response) => response?.content?.['application/json']?.schema?.$ref;
  const entries = Object.entries(operation.responses ?? {});
  const success = successOf(operation);
  const ref = success && refOf(success[1]);
  if (!ref) return undefined;
  const statuses = entries
    .filter(([status, response]) => !status.startsWith('2') && refOf(response) === ref)
    .map(([status]) => Number(status));
  if (statuses.length === 0) return undefined;
  const schema = schemas[ref.split('/').pop()] ?? {};
  const keys = (schema.required ?? []).filter((key) => !errorBodyKeys.has(key));
  if (keys.length === 0) throw new Error(`${operation.operationId}: outcome bodies cannot be told from error bodies.`);
  return { statuses, keys };
}

function emitMethod(op) {
  const args = op.pathParameters.map((p) => `${p.name}: ${p.plain ? 'string' : `Path<'${op.id}'>['${p.name}']`}`);
  if (op.body) args.push(`body: Body<'${op.id}'>`);
  if (op.query) args.push(op.query.required ? `query: Query<'${op.id}'>` : `query: Query<'${op.id}'> = {}`);
  args.push('options?: CallOptions');

  const params = [];
  if (op.pathParameters.length > 0) params.push(`path: { ${op.pathParameters.map((p) => p.name).join(', ')} }`);
  if (op.query) params.push('query');
  const init = [];
  if (params.length > 0) init.push(`params: { ${params.join(', ')} }`);
  if (op.body) init.push('body');
  init.push('...options');
  const call = `raw.${op.method.toUpperCase()}('${op.path}', { ${init.join(', ')} })`;
  const answer = op.outcomes
    ? `unwrapOutcome(${call}, [${op.outcomes.statuses.join(', ')}], [${op.outcomes.keys.map((k) => `'${k}'`).join(', ')}])`
    : `unwrap(${call})`;
  const doc = [`${op.summary ?? op.id}`, `\`${op.method.toUpperCase()} ${op.path}\``];
  if (op.outcomes) doc.push(`Answers ${op.outcomes.statuses.join(', ')} with the outcome as data, not as an error.`);
  for (const p of op.parameters) doc.push(`@param ${p.name} ${p.description}`);
  if (op.answer) doc.push(`@returns ${op.answer}`);
  for (const e of op.errors.filter((e) => !op.outcomes?.statuses.includes(e.status))) {
    doc.push(`@throws {${errorClassOf(e.status)}} ${e.status}: ${e.description}`);
  }
  return [
    '      /**',
    ...doc.map((line) => `       * ${line.replaceAll('*/', '*\\/')}`),
    '       */',
    `      ${op.id}: (${args.join(', ')}) =>`,
    `        ${answer},`,
  ].join('\n');
}

const names = [...groups.keys()];
const out = [
  '// Generated by scripts/generate-operations.mjs from openapi.json; `pnpm generate` rewrites it. Do not edit.',
  "import type { Client } from 'openapi-fetch';",
  "import { type CallOptions, unwrap, unwrapOutcome } from '../unwrap.js';",
  "import type { operations, paths } from './schema.js';",
  '',
  "type Path<K extends keyof operations> = NonNullable<operations[K]['parameters']['path']>;",
  "type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;",
  "type Body<K extends keyof operations> = NonNullable<operations[K]['requestBody']>['content']['application/json'];",
  '',
  '/** Every operation of openapi.json by its `x-margin-group`: the SDK method is `client.<group>.<operationId>`. */',
  'export const OPERATION_GROUPS = {',
  ...names.flatMap((group) => [`  ${group}: [`, ...groups.get(group).map((op) => `    '${op.id}',`), '  ],']),
  '} as const;',
  '',
  '/** One method per operation, answering the 2xx body and throwing a `MarginApiError` subclass otherwise. */',
  'export function createOperations(raw: Client<paths>) {',
  '  return {',
  ...names.flatMap((group) => [`    ${group}: {`, ...groups.get(group).map(emitMethod), '    },']),
  '  };',
  '}',
  '',
];
writeFileSync(target, out.join('\n'));
console.log(`${seen.size} operations in ${names.length} groups → src/generated/operations.ts`);
