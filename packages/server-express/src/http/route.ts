import { type Actor, type MarginCore, MarginError } from '@margin/core';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { type ZodType, z } from 'zod';
import type { HostContext } from '../host/host-context.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string | string[]>;
}

export interface PublicRouteContext<P, Q> {
  core: MarginCore;
  host: HostContext;
  params: P;
  query: Q;
  /** The parsed JSON body, unvalidated: use cases validate their own input. */
  body: unknown;
  req: Request;
  res: Response;
}

export interface RouteContext<P, Q> extends PublicRouteContext<P, Q> {
  /** Who is calling; always set on authenticated routes. */
  actor: Actor;
}

export interface RouteResponse {
  description: string;
  schema?: ZodType | undefined;
}

type ParamsSchema = z.ZodObject<z.ZodRawShape>;

/** The groups of core use cases that HTTP operations call; the SDK groups its methods the same way. */
export type OperationGroup =
  | 'identity'
  | 'tenancy'
  | 'licensing'
  | 'audit'
  | 'reviewing'
  | 'triggers'
  | 'knowledge'
  | 'spend'
  | 'scm'
  | 'ai';

interface RouteDeclaration<P extends ParamsSchema, Q extends ParamsSchema, G extends OperationGroup> {
  method: HttpMethod;
  /** OpenAPI-style template without the `/api` prefix, e.g. `/reviewing/jobs/{jobId}/status`. */
  path: string;
  /** The core group of the use case the route calls; openapi.json carries it as `x-margin-group`. */
  group: G;
  /**
   * One name per operation: the operationId is also the name of the use case (`core.<group>.<operationId>`)
   * and of the SDK method (`client.<group>.<operationId>`).
   */
  operationId: Extract<keyof MarginCore[G], string>;
  summary: string;
  tag: string;
  /** Credential endpoints share the per-IP limit. */
  rateLimit?: 'credentials';
  params?: P;
  query?: Q;
  /** Documents the body; the use case validates it. */
  body?: ZodType;
  responses: Record<number, RouteResponse>;
}

/**
 * One endpoint, declared once: the same object mounts the Express handler and describes the
 * operation in openapi.json, so the two cannot drift apart.
 */
export interface RouteSpec extends Omit<RouteDeclaration<ParamsSchema, ParamsSchema, OperationGroup>, 'operationId'> {
  operationId: string;
  access: 'public' | 'authenticated';
  handler(ctx: PublicRouteContext<unknown, unknown> & { actor: Actor | undefined }): Promise<RouteResult>;
}

/** An endpoint for a signed-in caller (bearer access token or `X-User-Pat`). */
export function route<
  G extends OperationGroup,
  P extends ParamsSchema = ParamsSchema,
  Q extends ParamsSchema = ParamsSchema,
>(
  spec: RouteDeclaration<P, Q, G> & { handler(ctx: RouteContext<z.infer<P>, z.infer<Q>>): Promise<RouteResult> },
): RouteSpec {
  return { ...spec, access: 'authenticated' } as unknown as RouteSpec;
}

/** An endpoint anyone may call (sign-in, the webhook receiver). */
export function publicRoute<
  G extends OperationGroup,
  P extends ParamsSchema = ParamsSchema,
  Q extends ParamsSchema = ParamsSchema,
>(
  spec: RouteDeclaration<P, Q, G> & { handler(ctx: PublicRouteContext<z.infer<P>, z.infer<Q>>): Promise<RouteResult> },
): RouteSpec {
  return { ...spec, access: 'public' } as unknown as RouteSpec;
}

/** `/clients/{clientId}/jobs` → `/clients/:clientId/jobs` */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

export interface RouteLimiters {
  credentials: RequestHandler;
}

const EMPTY = z.object({});

export function mountRoutes(
  router: Router,
  routes: readonly RouteSpec[],
  core: MarginCore,
  host: HostContext,
  limiters: RouteLimiters,
): void {
  // One sub-router per first path segment: a request is matched against the routes of its own
  // segment instead of scanning every route of the API in turn.
  const groups = new Map<string, Router>();
  for (const spec of routes) {
    const segment = spec.path.split('/')[1] ?? '';
    let group = groups.get(segment);
    if (!group) {
      group = Router();
      (group as MountedRouter).mountPath = `/${segment}`;
      groups.set(segment, group);
      router.use(`/${segment}`, group);
    }
    mountRoute(group, spec.path.slice(segment.length + 1) || '/', spec, core, host, limiters);
  }
}

/** The prefix a group router is mounted at, for tools that list the routes (the openapi test). */
export type MountedRouter = Router & { mountPath?: string };

function mountRoute(
  router: Router,
  path: string,
  spec: RouteSpec,
  core: MarginCore,
  host: HostContext,
  limiters: RouteLimiters,
) {
  const before: RequestHandler[] = [
    (_req, res, next) => {
      res.locals.routeTemplate = spec.path;
      next();
    },
  ];
  if (spec.rateLimit) before.push(limiters[spec.rateLimit]);
  router[spec.method](expressPath(path), ...before, async (req, res, next) => {
    try {
      if (spec.access === 'authenticated' && !req.actor) throw req.authFailure ?? MarginError.unauthenticated();
      const params = (spec.params ?? EMPTY).parse(req.params);
      const query = (spec.query ?? EMPTY).parse(req.query);
      const result = await spec.handler({ core, host, actor: req.actor, params, query, body: req.body, req, res });
      for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
      if (result.body === undefined) res.status(result.status).end();
      else sendJson(req, res, result.status, result.body);
    } catch (error) {
      next(error);
    }
  });
}

/**
 * Writes a JSON answer directly. Express's `res.json` goes through `res.send`, whose ETag and
 * freshness handling this API never uses, and costs several times more for the same bytes.
 */
export function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  const payload = serialized(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length);
  res.end(req.method === 'HEAD' ? undefined : payload);
}

/**
 * A frozen body cannot change, so it is serialized once however often it is sent (core hands out
 * frozen views on hot reads, e.g. job status); anything else is serialized each time.
 */
const serializedOnce = new WeakMap<object, Buffer>();
function serialized(body: unknown): string | Buffer {
  if (typeof body !== 'object' || body === null || !Object.isFrozen(body)) return JSON.stringify(body);
  let bytes = serializedOnce.get(body);
  if (!bytes) {
    bytes = Buffer.from(JSON.stringify(body));
    serializedOnce.set(body, bytes);
  }
  return bytes;
}
