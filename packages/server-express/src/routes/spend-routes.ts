import { BudgetInput, BudgetView, SpendQuery, TokenUsageQuery, UsageReport } from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { ClientParams, TenantParams } from './params.js';

const TAG = 'Usage and spend';

export const spendRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/admin/clients/{clientId}/token-usage',
    group: 'spend',
    operationId: 'clientTokenUsage',
    summary:
      'Tokens and estimated cost of the client’s model calls, per day, model, purpose, source or repository (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: TokenUsageQuery,
    responses: { 200: { description: 'The usage report.', schema: UsageReport }, ...errors(400, 403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.spend.clientTokenUsage(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/tenants/{tenantId}/spend',
    group: 'spend',
    operationId: 'tenantSpend',
    summary: 'Estimated spend of the tenant’s clients, per client, day or model; needs budgeting (TenantAdministrator)',
    tag: TAG,
    params: TenantParams,
    query: SpendQuery,
    responses: { 200: { description: 'The spend report.', schema: UsageReport }, ...errors(400, 403, 404, 409) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.spend.tenantSpend(actor, params.tenantId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/clients/{clientId}/budget',
    group: 'spend',
    operationId: 'getBudget',
    summary: 'The client’s spend caps and where this month stands; needs budgeting (ClientUser)',
    tag: TAG,
    params: ClientParams,
    responses: { 200: { description: 'The budget.', schema: BudgetView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.spend.getBudget(actor, params.clientId),
    }),
  }),
  route({
    method: 'put',
    path: '/admin/clients/{clientId}/budget',
    group: 'spend',
    operationId: 'putBudget',
    summary: 'Set the client’s spend caps (each US$ ≥ 0, or null for none); needs budgeting (ClientAdministrator)',
    tag: TAG,
    params: ClientParams,
    body: BudgetInput,
    responses: { 200: { description: 'The budget as saved.', schema: BudgetView }, ...errors(400, 403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.spend.putBudget(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/admin/clients/{clientId}/budget/reset',
    group: 'spend',
    operationId: 'resetBudget',
    summary: 'Start a new accounting period now; needs budgeting (ClientAdministrator)',
    tag: TAG,
    params: ClientParams,
    responses: {
      200: { description: 'The budget from the new period.', schema: BudgetView },
      ...errors(403, 404, 409),
    },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.spend.resetBudget(actor, params.clientId),
    }),
  }),
];
