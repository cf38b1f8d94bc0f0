import { MemoryList, MemoryListQuery } from '@margin/core/schemas';
import { z } from 'zod';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { ClientParams } from './params.js';

const TAG = 'Reviewing';
const MemoryParams = z.object({ clientId: z.string().min(1).max(100), memoryId: z.string().min(1).max(100) });

/** Thread memory: what people decided about Margin's findings, which later reviews hold back. */
export const threadMemoryRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/clients/{clientId}/reviewing/memory',
    group: 'reviewing',
    operationId: 'listThreadMemory',
    summary: 'Thread memory: past decisions on findings, newest first (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: MemoryListQuery.extend({
      limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Page size, 1–200 (default 50).' }),
    }),
    responses: { 200: { description: 'A page of memory records.', schema: MemoryList }, ...errors(400, 403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.reviewing.listThreadMemory(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'delete',
    path: '/clients/{clientId}/reviewing/memory/{memoryId}',
    group: 'reviewing',
    operationId: 'deleteThreadMemory',
    summary: 'Forget a past decision: later reviews raise the finding again (ClientAdministrator)',
    tag: TAG,
    params: MemoryParams,
    responses: { 204: { description: 'Forgotten.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.reviewing.deleteThreadMemory(actor, params.clientId, params.memoryId);
      return { status: 204 };
    },
  }),
];
