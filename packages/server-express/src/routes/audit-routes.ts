import { AuditEntryList } from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { PageQuery, TenantParams } from './params.js';

const TAG = 'Audit';

export const auditRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/admin/tenants/{tenantId}/audit',
    group: 'audit',
    operationId: 'listTenantAudit',
    summary: 'Configuration changes in the tenant, newest first (tenant administrator)',
    tag: TAG,
    params: TenantParams,
    query: PageQuery,
    responses: {
      200: { description: 'A page of audit entries, newest first.', schema: AuditEntryList },
      ...errors(400, 403, 404),
    },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.audit.listTenantAudit(actor, params.tenantId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/audit',
    group: 'audit',
    operationId: 'listPlatformAudit',
    summary: 'Configuration changes across the installation, newest first (platform administrator)',
    tag: TAG,
    query: PageQuery,
    responses: {
      200: { description: 'A page of audit entries, newest first.', schema: AuditEntryList },
      ...errors(400, 403),
    },
    handler: async ({ core, actor, query }) => ({
      status: 200,
      body: await core.audit.listPlatformAudit(actor, query),
    }),
  }),
];
