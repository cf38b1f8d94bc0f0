import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { RouteSpec } from '../http/route.js';
import { errors } from './error-body.js';

export const API_VERSION = '0.1.0';

/** openapi.json from the route table: paths without the `/api` prefix, as the spec requires. */
export function buildOpenApiDocument(routes: readonly RouteSpec[]): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Access token from POST /auth/login or /auth/refresh.',
  });
  const pat = registry.registerComponent('securitySchemes', 'pat', {
    type: 'apiKey',
    in: 'header',
    name: 'X-User-Pat',
    description: 'Personal access token, acting with exactly its owner’s permissions.',
  });

  for (const spec of routes) {
    const isPublic = spec.access === 'public';
    const implicit = {
      ...(spec.body || spec.params || spec.query ? errors(400) : {}),
      ...(isPublic ? {} : errors(401)),
    };
    const responses: RouteConfig['responses'] = {};
    for (const [status, response] of Object.entries({ ...implicit, ...spec.responses })) {
      responses[status] = response.schema
        ? { description: response.description, content: { 'application/json': { schema: response.schema } } }
        : { description: response.description };
    }
    registry.registerPath({
      method: spec.method,
      path: spec.path,
      operationId: spec.operationId,
      // Where the SDK puts the method: `client.<group>.<operationId>`, as `core.<group>.<operationId>`.
      'x-margin-group': spec.group,
      summary: spec.summary,
      tags: [spec.tag],
      security: isPublic ? [] : [{ [bearer.name]: [] }, { [pat.name]: [] }],
      request: {
        params: spec.params,
        query: spec.query,
        body: spec.body ? { required: true, content: { 'application/json': { schema: spec.body } } } : undefined,
      },
      responses,
    });
  }

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Margin API',
      version: API_VERSION,
      description:
        'AI code review for pull requests. Paths are the API’s own; the reference gateway serves them under `/api`, and the webhook receiver at its own `/webhooks/...` path.',
    },
    servers: [{ url: '/api', description: 'Through the reference gateway' }],
  }) as unknown as Record<string, unknown>;
}

export function serializeOpenApi(document: Record<string, unknown>): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
