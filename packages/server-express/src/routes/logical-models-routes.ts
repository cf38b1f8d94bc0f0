import {
  CatalogModelInput,
  CatalogModelList,
  CatalogModelQuery,
  CatalogModelView,
  CatalogProviderList,
  ClientLogicalModelsView,
  LogicalModelInput,
  LogicalModelView,
  PriceOverrideInput,
  PriceOverrideList,
  PriceOverrideView,
  PurposeMappingView,
  PutLogicalModelInput,
  PutPurposeInput,
  TenantLogicalModelList,
} from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import {
  CatalogModelParams,
  ClientLogicalModelParams,
  ClientParams,
  ClientPurposeParams,
  PriceOverrideParams,
  TenantLogicalModelParams,
  TenantParams,
} from './params.js';

const CLIENT_TAG = 'Logical models';
const TENANT_TAG = 'Tenant model catalog';

/** Client overrides and purposes (reads: ClientUser, writes: ClientAdministrator). */
const clientRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/clients/{clientId}/logical-models',
    group: 'ai',
    operationId: 'listClientLogicalModels',
    summary: 'Effective logical models of the client (overrides, then unshadowed tenant entries) and purpose mappings',
    tag: CLIENT_TAG,
    params: ClientParams,
    responses: {
      200: { description: 'Logical models and purposes.', schema: ClientLogicalModelsView },
      ...errors(404),
    },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.listClientLogicalModels(actor, params.clientId),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/logical-models/overrides',
    group: 'ai',
    operationId: 'createClientLogicalModel',
    summary: 'Define a logical model for the client, pointing at a model of one of its AI connections',
    tag: CLIENT_TAG,
    params: ClientParams,
    body: LogicalModelInput,
    responses: { 201: { description: 'Created.', schema: LogicalModelView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.ai.createClientLogicalModel(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/logical-models/overrides/{name}',
    group: 'ai',
    operationId: 'getClientLogicalModel',
    summary: 'Read one of the client’s logical models',
    tag: CLIENT_TAG,
    params: ClientLogicalModelParams,
    responses: { 200: { description: 'The logical model.', schema: LogicalModelView }, ...errors(404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.getClientLogicalModel(actor, params.clientId, params.name),
    }),
  }),
  route({
    method: 'put',
    path: '/clients/{clientId}/logical-models/overrides/{name}',
    group: 'ai',
    operationId: 'putClientLogicalModel',
    summary: 'Repoint one of the client’s logical models',
    tag: CLIENT_TAG,
    params: ClientLogicalModelParams,
    body: PutLogicalModelInput,
    responses: { 204: { description: 'Changed.' }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => {
      await core.ai.putClientLogicalModel(actor, params.clientId, params.name, body);
      return { status: 204 };
    },
  }),
  route({
    method: 'delete',
    path: '/clients/{clientId}/logical-models/overrides/{name}',
    group: 'ai',
    operationId: 'deleteClientLogicalModel',
    summary: 'Delete one of the client’s logical models no purpose depends on',
    tag: CLIENT_TAG,
    params: ClientLogicalModelParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params }) => {
      await core.ai.deleteClientLogicalModel(actor, params.clientId, params.name);
      return { status: 204 };
    },
  }),
  route({
    method: 'put',
    path: '/clients/{clientId}/logical-models/purposes/{purpose}',
    group: 'ai',
    operationId: 'putClientPurpose',
    summary: 'Point a purpose at a logical model effective for the client',
    tag: CLIENT_TAG,
    params: ClientPurposeParams,
    body: PutPurposeInput,
    responses: { 200: { description: 'The mapping.', schema: PurposeMappingView }, ...errors(403, 404) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.putClientPurpose(actor, params.clientId, params.purpose, body),
    }),
  }),
  route({
    method: 'delete',
    path: '/clients/{clientId}/logical-models/purposes/{purpose}',
    group: 'ai',
    operationId: 'deleteClientPurpose',
    summary: 'Unmap a purpose: it resolves through the profiles’ purpose bindings again',
    tag: CLIENT_TAG,
    params: ClientPurposeParams,
    responses: { 204: { description: 'Unmapped.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.ai.deleteClientPurpose(actor, params.clientId, params.purpose);
      return { status: 204 };
    },
  }),
];

/**
 * The tenant catalog (reads: TenantUser, writes: TenantAdministrator). Writes are refused with 400
 * for the System tenant and 409 `license_required` in Community.
 */
const tenantRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/tenants/{tenantId}/logical-models',
    group: 'ai',
    operationId: 'listTenantLogicalModels',
    summary: 'The tenant’s logical-model catalog',
    tag: TENANT_TAG,
    params: TenantParams,
    responses: { 200: { description: 'Tenant entries.', schema: TenantLogicalModelList }, ...errors(404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.listTenantLogicalModels(actor, params.tenantId),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/logical-models',
    group: 'ai',
    operationId: 'createTenantLogicalModel',
    summary: 'Add a catalog entry pointing at a model of one of the tenant’s clients’ connections',
    tag: TENANT_TAG,
    params: TenantParams,
    body: LogicalModelInput,
    responses: { 201: { description: 'Created.', schema: LogicalModelView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.ai.createTenantLogicalModel(actor, params.tenantId, body),
    }),
  }),
  route({
    method: 'put',
    path: '/tenants/{tenantId}/logical-models/{name}',
    group: 'ai',
    operationId: 'putTenantLogicalModel',
    summary: 'Repoint a catalog entry',
    tag: TENANT_TAG,
    params: TenantLogicalModelParams,
    body: PutLogicalModelInput,
    responses: { 204: { description: 'Changed.' }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => {
      await core.ai.putTenantLogicalModel(actor, params.tenantId, params.name, body);
      return { status: 204 };
    },
  }),
  route({
    method: 'delete',
    path: '/tenants/{tenantId}/logical-models/{name}',
    group: 'ai',
    operationId: 'deleteTenantLogicalModel',
    summary: 'Delete a catalog entry no client purpose depends on',
    tag: TENANT_TAG,
    params: TenantLogicalModelParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(400, 403, 404, 409) },
    handler: async ({ core, actor, params }) => {
      await core.ai.deleteTenantLogicalModel(actor, params.tenantId, params.name);
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/model-catalog/models',
    group: 'ai',
    operationId: 'listClientCatalogModels',
    summary:
      'Browse the model catalog as the client’s connections see it: built-in models, and its tenant’s own in Commercial (ClientAdministrator, both editions)',
    tag: 'Logical models',
    params: ClientParams,
    query: CatalogModelQuery,
    responses: { 200: { description: 'Catalog models.', schema: CatalogModelList }, ...errors(403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.ai.listClientCatalogModels(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/tenants/{tenantId}/model-catalog/models',
    group: 'ai',
    operationId: 'listCatalogModels',
    summary: 'Browse the model catalog: built-in models, the tenant’s own, with its prices',
    tag: TENANT_TAG,
    params: TenantParams,
    query: CatalogModelQuery,
    responses: { 200: { description: 'Catalog models.', schema: CatalogModelList }, ...errors(404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.ai.listCatalogModels(actor, params.tenantId, query),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/model-catalog/models',
    group: 'ai',
    operationId: 'createCatalogModel',
    summary: 'Hand-define a model in the tenant’s catalog',
    tag: TENANT_TAG,
    params: TenantParams,
    body: CatalogModelInput,
    responses: { 201: { description: 'Created.', schema: CatalogModelView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.ai.createCatalogModel(actor, params.tenantId, body),
    }),
  }),
  route({
    method: 'delete',
    path: '/tenants/{tenantId}/model-catalog/models/{modelId}',
    group: 'ai',
    operationId: 'deleteCatalogModel',
    summary: 'Delete a hand-defined catalog model',
    tag: TENANT_TAG,
    params: CatalogModelParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(400, 403, 404, 409) },
    handler: async ({ core, actor, params }) => {
      await core.ai.deleteCatalogModel(actor, params.tenantId, params.modelId);
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/tenants/{tenantId}/model-catalog/providers',
    group: 'ai',
    operationId: 'listCatalogProviders',
    summary: 'Provider kinds this build can call, with their protocol modes and catalog model counts',
    tag: TENANT_TAG,
    params: TenantParams,
    responses: { 200: { description: 'Provider kinds.', schema: CatalogProviderList }, ...errors(404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.listCatalogProviders(actor, params.tenantId),
    }),
  }),
  route({
    method: 'get',
    path: '/tenants/{tenantId}/model-catalog/overrides',
    group: 'ai',
    operationId: 'listPriceOverrides',
    summary: 'The tenant’s price overrides for catalog models',
    tag: TENANT_TAG,
    params: TenantParams,
    responses: { 200: { description: 'Price overrides.', schema: PriceOverrideList }, ...errors(404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.listPriceOverrides(actor, params.tenantId),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/model-catalog/overrides',
    group: 'ai',
    operationId: 'putPriceOverride',
    summary: 'Set the tenant’s prices for a catalog model (replaces an existing override of that model)',
    tag: TENANT_TAG,
    params: TenantParams,
    body: PriceOverrideInput,
    responses: {
      200: { description: 'Replaced an existing override.', schema: PriceOverrideView },
      201: { description: 'Created.', schema: PriceOverrideView },
      ...errors(403, 404, 409),
    },
    handler: async ({ core, actor, params, body }) => {
      const { created, override } = await core.ai.putPriceOverride(actor, params.tenantId, body);
      return { status: created ? 201 : 200, body: override };
    },
  }),
  route({
    method: 'delete',
    path: '/tenants/{tenantId}/model-catalog/overrides/{overrideId}',
    group: 'ai',
    operationId: 'deletePriceOverride',
    summary: 'Delete a price override: the catalog price applies again',
    tag: TENANT_TAG,
    params: PriceOverrideParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(400, 403, 404, 409) },
    handler: async ({ core, actor, params }) => {
      await core.ai.deletePriceOverride(actor, params.tenantId, params.overrideId);
      return { status: 204 };
    },
  }),
];

export const logicalModelsRoutes: RouteSpec[] = [...clientRoutes, ...tenantRoutes];
