import { type Actor, type MarginCore, MarginError } from '@margin/core';
import type { Request, Response, Router } from 'express';
import { type ZodType, z } from 'zod';
import type { HostContext } from '../host/host-context.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string | string[]>;
}

export interface RouteContext<P, Q> {
  core: MarginCore;
  host: HostContext;
  /** Who is calling; set by the authentication middleware, absent for anonymous calls. */
  actor: Actor | undefined;
  params: P;
  query: Q;
  /** The parsed JSON body, unvalidated: use cases validate their own input. */
  body: unknown;
  req: Request;
  res: Response;
}

export interface RouteResponse {
  description: string;
  schema?: ZodType | undefined;
}

/**
 * One endpoint, declared once: the same object mounts the Express handler and describes the
 * operation in openapi.json, so the two cannot drift apart.
 */
export interface RouteSpec<P = Record<string, string>, Q = Record<string, unknown>> {
  method: HttpMethod;
  /** OpenAPI-style template without the `/api` prefix, e.g. `/reviewing/jobs/{jobId}/status`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** `public` routes skip authentication (login, webhook receiver). Default: a signed-in caller is required. */
  access?: 'public' | 'authenticated';
  params?: z.ZodObject<z.ZodRawShape> | undefined;
  query?: z.ZodObject<z.ZodRawShape> | undefined;
  /** Documents the body; the use case validates it. */
  body?: ZodType | undefined;
  responses: Record<number, RouteResponse>;
  handler(ctx: RouteContext<P, Q>): Promise<RouteResult>;
}

/** Keeps the param and query types of a spec while collecting specs of different shapes in one list. */
export function route<P extends z.ZodObject<z.ZodRawShape>, Q extends z.ZodObject<z.ZodRawShape>>(
  spec: Omit<RouteSpec<z.infer<P>, z.infer<Q>>, 'params' | 'query'> & { params?: P; query?: Q },
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** `/clients/{clientId}/jobs` → `/clients/:clientId/jobs` */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

const EMPTY = z.object({});

export function mountRoutes(router: Router, routes: readonly RouteSpec[], core: MarginCore, host: HostContext): void {
  for (const spec of routes) {
    router[spec.method](expressPath(spec.path), async (req, res, next) => {
      res.locals.routeTemplate = spec.path;
      try {
        if (spec.access !== 'public' && !req.actor) throw MarginError.unauthenticated();
        const params = (spec.params ?? EMPTY).parse(req.params);
        const query = (spec.query ?? EMPTY).parse(req.query);
        const result = await spec.handler({ core, host, actor: req.actor, params, query, body: req.body, req, res });
        for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
        if (result.body === undefined) res.status(result.status).end();
        else res.status(result.status).json(result.body);
      } catch (error) {
        next(error);
      }
    });
  }
}
