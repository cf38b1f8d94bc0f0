import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/index.js';
import { type ScmFakes, startScmFakes } from '../testing/scm-test-support.js';
import {
  authHeaders,
  delivery,
  FACTS,
  FAMILIES,
  type FamilyName,
  post,
  scopedClient,
} from '../testing/triggers-test-support.js';

/**
 * Schema fuzzing from the committed openapi.json, as users found the issue: for every operation
 * (and the webhook receivers at their gateway path), hostile path segments, query values and bodies
 * derived from the request schema and then broken, with and without credentials. Whatever comes in,
 * the answer is below 500, and an error is `{ error, code }` and smaller than 64 KB.
 */

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  minLength?: number;
  maxLength?: number;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema | undefined;
}

const document = JSON.parse(readFileSync(new URL('../../../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
  >;
  components: { schemas: Record<string, Schema> };
};

const OPERATIONS: Operation[] = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({
    method: method.toUpperCase(),
    path,
    parameters: op.parameters ?? [],
    body: op.requestBody?.content['application/json']?.schema,
  })),
);

const resolve = (schema: Schema): Schema =>
  schema.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop() ?? ''] ?? {}) : schema;

/** A value shaped like the schema (often valid), kept small so mutations decide what is large. */
function shapedBy(raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((s) => shapedBy(s, depth + 1)));
  if (schema.allOf?.[0]) return shapedBy(schema.allOf[0], depth + 1);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'object'];
  return fc.oneof(...types.map((type) => shapedByType(schema, type, depth)));
}

function shapedByType(schema: Schema, type: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: -10, max: 1000 });
    case 'number':
      return fc.double({ noNaN: true, min: -10, max: 1000 });
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time') return fc.constant('2026-01-01T00:00:00.000Z');
      if (schema.format === 'uri') return fc.constantFrom('http://127.0.0.1:9/x', 'not a url');
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 12, 12) });
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(shapedBy(schema.items ?? {}, depth + 1), { maxLength: 2 });
    default: {
      if (depth > 4) return fc.constant({});
      const props = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, s]) => [key, shapedBy(s, depth + 1)]),
      );
      return fc.record(props, { requiredKeys: (schema.required ?? []).filter((key) => key in props) });
    }
  }
}

const deepArray = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as unknown;
const deepObject = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}`) as unknown;

/** What a careless or hostile client puts where a value belongs. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    0,
    -1,
    1e308,
    -1e308,
    true,
    '',
    ' ',
    {},
    [],
    '__proto__',
    JSON.parse('{"__proto__":{"admin":true}}'),
  ),
  fc.constantFrom('x'.repeat(200_000), '\u0000\uFFFF\uD83D\uDE00'.repeat(1000), 'é'.repeat(100_000)),
  fc.constantFrom(
    Array.from({ length: 100_000 }, () => 0),
    Array.from({ length: 50_000 }, () => 'x'),
  ),
  fc.constantFrom(deepArray(3000), deepObject(3000)),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.oneof(fc.integer(), fc.double(), fc.boolean()),
  fc.array(fc.anything({ maxDepth: 3 }), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.anything({ maxDepth: 2 }), { maxKeys: 5 }),
);

/** Every location inside a value, as a key path (the root is `[]`). */
function locations(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  out.push(prefix);
  if (prefix.length > 6) return out;
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.slice(0, 3).map((item, i) => [i, item])
    : value && typeof value === 'object'
      ? Object.entries(value)
      : [];
  for (const [key, item] of children) locations(item, [...prefix, key], out);
  return out;
}

function replaced(value: unknown, at: (string | number)[], by: unknown): unknown {
  if (at.length === 0) return by;
  const [head, ...rest] = at as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[head] = replaced(copy[head], rest, by);
  return copy;
}

/** A body: schema-shaped, schema-shaped with one place broken, hostile as a whole, or not JSON at all. */
const bodyOf = (schema: Schema | undefined): fc.Arbitrary<string | undefined> => {
  const shaped = schema ? shapedBy(schema) : fc.constant({});
  const broken = fc.tuple(shaped, hostileValue, fc.nat()).map(([value, hostile, pick]) => {
    const at = locations(value);
    return replaced(value, at[pick % at.length] ?? [], hostile);
  });
  return fc.oneof(
    fc.constant(undefined),
    shaped.map((v) => JSON.stringify(v)),
    broken.map((v) => JSON.stringify(v)),
    broken.map((v) => JSON.stringify(v)),
    fc.constantFrom('{', '{"a":}', 'nul', '\u0000', '[1,]', '"x"', 'null', '1'),
  );
};

/** Path segments and query values as they appear on the wire (already percent-encoded, or broken). */
const BAD_ESCAPES = ['%FF%FE', '%ZZ', '%', '%C0%AF', '%E2%82', 'a%2', '%00', '..%2F..%2Fetc', '%2e%2e'];
const wireText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...BAD_ESCAPES),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc.constantFrom('a'.repeat(3000), encodeURIComponent('界'.repeat(300)), '-1', '0', '1e309', 'NaN', 'null'),
  fc.uuid(),
);

type Credential = 'admin' | 'none' | 'garbage' | 'garbagePat';
const credentialOf: fc.Arbitrary<Credential> = fc.constantFrom('admin', 'admin', 'none', 'garbage', 'garbagePat');

interface Attempt {
  segments: Record<string, string>;
  query: [string, string][];
  body: string | undefined;
  credential: Credential;
}

const attemptOf = (op: Operation): fc.Arbitrary<Attempt> => {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  return fc.record({
    segments: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, wireText]))) as fc.Arbitrary<
      Record<string, string>
    >,
    query: fc.array(fc.tuple(fc.constantFrom(...queryParams.map((p) => p.name), 'unknown', 'limit[a]'), wireText), {
      maxLength: 4,
    }),
    body: bodyOf(op.body),
    credential: credentialOf,
  });
};

const MAX_ERROR_BODY = 64 * 1024;

/** fc.assert rejects on the first broken answer, already listed; anything else it throws is a bug here. */
const rethrowUnlessFound = (problems: string[]) => (error: unknown) => {
  if (problems.length === 0) throw error;
};
const PUBLIC_BASE = 'https://margin.example.com';

describe('fuzzing every operation of openapi.json', () => {
  let fakes: ScmFakes;
  let host: TestHost;
  let bearer: string;
  let answered = 0;
  /** A webhook configuration per provider family, so signed deliveries reach the payload parsing. */
  const listeners = new Map<FamilyName, { url: string; secret: string }>();
  beforeAll(async () => {
    fakes = await startScmFakes();
    host = await startTestHost({
      providers: fakes.providers,
      env: { WORKER_ENABLED: 'false', MARGIN_PUBLIC_BASE_URL: PUBLIC_BASE },
    });
    const admin = await host.admin();
    bearer = admin.credentials.bearer ?? '';
    for (const family of FAMILIES) {
      const scoped = await scopedClient(admin, fakes, family, `Fuzzed ${family}`);
      const created = await admin.post('/admin/webhook-configurations', {
        clientId: scoped.clientId,
        provider: FACTS[family].provider,
        organizationScopeId: scoped.scopeId,
        providerProjectKey: FACTS[family].projectKey,
      });
      if (created.status !== 201) throw new Error(`${family}: ${created.status} ${JSON.stringify(created.body)}`);
      listeners.set(family, {
        url: created.body.listenerUrl.replace(PUBLIC_BASE, host.url),
        secret: created.body.generatedSecret,
      });
    }
  });
  afterAll(async () => {
    await host?.close();
    await fakes?.close();
  });

  /** Sends one attempt and returns why its answer breaks the rule, if it does. */
  async function breaks(op: Operation, attempt: Attempt, base = `${host.url}/api`): Promise<string | undefined> {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => attempt.segments[name] ?? 'x');
    const query = attempt.query.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&');
    const headers: Record<string, string> = {};
    if (attempt.body !== undefined) headers['content-type'] = 'application/json';
    if (attempt.credential === 'admin') headers.authorization = `Bearer ${bearer}`;
    if (attempt.credential === 'garbage') headers.authorization = 'Bearer garbage.garbage.garbage';
    if (attempt.credential === 'garbagePat') headers['x-user-pat'] = `mgn_${'z'.repeat(48)}`;
    const hasBody = op.method !== 'GET' && attempt.body !== undefined;
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${base}${path}${query ? `?${query}` : ''}`, {
        method: op.method,
        headers,
        body: hasBody ? attempt.body : undefined,
      });
      text = await res.text();
    } catch (error) {
      return `no answer (${String(error)}): ${op.method} ${path.slice(0, 120)}`;
    }
    answered++;
    return brokenAnswer(res.status, text, `${op.method} ${path.slice(0, 120)} → ${res.status} ${text.slice(0, 200)}`);
  }

  /** A few hostile cases every operation gets, whatever the random runs pick. */
  function explicitAttempts(op: Operation): Attempt[] {
    const base: Attempt = { segments: {}, query: [], body: undefined, credential: 'admin' };
    const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const attempts: Attempt[] = ['%FF%FE', '%ZZ', '%'].flatMap((bad) =>
      pathNames.map((name) => ({ ...base, segments: { [name]: bad }, body: '{}' })),
    );
    if (pathNames.length > 0)
      attempts.push({ ...base, segments: { [pathNames[0] ?? '']: '%FF%FE' }, credential: 'none' });
    for (const p of op.parameters.filter((q) => q.in === 'query'))
      attempts.push({
        ...base,
        query: [
          [p.name, '%FF'],
          [p.name, 'a'.repeat(3000)],
          [p.name, '2'],
        ],
      });
    if (op.method !== 'GET') {
      const shaped = op.body ? fc.sample(shapedBy(op.body), { seed: 7, numRuns: 1 })[0] : {};
      for (const at of arrayLocations(op.body))
        attempts.push({ ...base, body: JSON.stringify(replaced(shaped, at, Array(100_000).fill(0))) });
      attempts.push({ ...base, body: `${'['.repeat(20_000)}${']'.repeat(20_000)}` });
      attempts.push({ ...base, body: JSON.stringify({ ...(shaped as object), x: 'x'.repeat(300_000) }) });
      attempts.push({ ...base, body: 'null' });
      attempts.push({ ...base, body: JSON.stringify(Array(100_000).fill(null)) });
    }
    return attempts;
  }

  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s answers below 500 with a small { error, code }',
    async (_name, op) => {
      const problems: string[] = [];
      for (const attempt of explicitAttempts(op)) {
        const problem = await breaks(op, attempt);
        if (problem) problems.push(problem);
      }
      // The receivers are also reached at their own path on the gateway, without `/api`.
      const bases = op.path.startsWith('/webhooks/') ? [`${host.url}/api`, host.url] : [`${host.url}/api`];
      await fc
        .assert(
          fc.asyncProperty(attemptOf(op), fc.constantFrom(...bases), async (attempt, base) => {
            const problem = await breaks(op, attempt, base);
            if (problem) problems.push(problem);
            return problem === undefined;
          }),
          // A fixed seed keeps CI repeatable; shrinking huge bodies would only cost time.
          { seed: 20_260_127, numRuns: 8, endOnFailure: true },
        )
        .catch(rethrowUnlessFound(problems));
      expect(problems.slice(0, 5)).toEqual([]);
    },
    60_000,
  );

  /** Why an answer breaks the rule, if it does. */
  function brokenAnswer(status: number, text: string, seen: string): string | undefined {
    if (status >= 500) return `5xx: ${seen}`;
    if (status < 400) return undefined;
    if (Buffer.byteLength(text) >= MAX_ERROR_BODY) return `error body of ${Buffer.byteLength(text)} bytes: ${seen}`;
    try {
      const body = JSON.parse(text) as { error?: unknown; code?: unknown };
      if (typeof body.error !== 'string' || typeof body.code !== 'string') return `not { error, code }: ${seen}`;
    } catch {
      return `not JSON: ${seen}`;
    }
    return undefined;
  }

  it.each(FAMILIES)('the %s receiver answers correctly signed but broken payloads below 500', async (family) => {
    const listener = listeners.get(family);
    if (!listener) throw new Error(`no listener for ${family}`);
    const problems: string[] = [];
    const statuses = new Set<number>();
    const send = async (body: string, headers: Record<string, string>) => {
      const res = await post(listener.url, { body, headers });
      answered++;
      statuses.add(res.status);
      const problem = brokenAnswer(res.status, res.text, `${family} → ${res.status} ${res.text.slice(0, 200)}`);
      if (problem) problems.push(problem);
      return problem === undefined;
    };
    const signed = (body: string) => ({
      'content-type': 'application/json',
      ...authHeaders(family, body, listener.secret),
    });
    for (const body of ['', 'null', '[]', '{', '"x"', JSON.stringify(Array(100_000).fill(0))])
      await send(body, signed(body));
    const fixture = delivery(family, FACTS[family].opened, listener.secret);
    const payload = JSON.parse(fixture.body) as unknown;
    const places = locations(payload);
    await fc
      .assert(
        fc.asyncProperty(fc.nat(), hostileValue, async (pick, hostile) => {
          const at = places[pick % places.length] ?? [];
          const d = delivery(family, FACTS[family].opened, listener.secret, {
            edit: (p) => Object.assign(p, replaced(p, at, hostile)),
          });
          return send(d.body, d.headers);
        }),
        { seed: 20_260_127, numRuns: 20, endOnFailure: true },
      )
      .catch(rethrowUnlessFound(problems));
    expect(problems.slice(0, 5)).toEqual([]);
    // The signatures held: deliveries got past them to the payload and some were acknowledged.
    expect(statuses).toContain(200);
  });

  it('sent every operation its requests', () => {
    expect(OPERATIONS.length).toBeGreaterThan(80);
    expect(answered).toBeGreaterThan(OPERATIONS.length * 8);
    // Nothing a client sent was worth an error in the log (each 500 used to log one).
    expect(host.logs().filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

/** Key paths of every array in a request schema (into the first item of enclosing arrays). */
function arrayLocations(raw: Schema | undefined, prefix: (string | number)[] = [], depth = 0): (string | number)[][] {
  if (!raw || depth > 5) return [];
  const schema = resolve(raw);
  const out: (string | number)[][] = [];
  for (const choice of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])])
    out.push(...arrayLocations(choice, prefix, depth + 1));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('array')) {
    out.push(prefix);
    out.push(...arrayLocations(schema.items, [...prefix, 0], depth + 1));
  }
  for (const [key, s] of Object.entries(schema.properties ?? {}))
    out.push(...arrayLocations(s, [...prefix, key], depth + 1));
  return out;
}
