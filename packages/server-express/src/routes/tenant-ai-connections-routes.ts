import {
  AiConnectionList,
  AiConnectionView,
  AiDiscoveryResultView,
  AiProbeInput,
  AiProbeResultView,
  AiVerificationView,
  AttachCatalogModelInput,
  CreateAiConnectionInput,
  PatchAiConnectionInput,
  PermittedProvidersView,
} from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { PageQuery, TenantAiConnectionParams, TenantParams } from './params.js';

const TAG = 'AI connections';
const WHO = '(tenant administrator or platform administrator)';

/**
 * The tenant's own AI connections, with the client routes' shapes. Its catalog entries may point at
 * them; its clients use them only through those entries and never see the credential.
 * Static segments come before `{connectionId}`.
 */
export const tenantAiConnectionsRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/tenants/{tenantId}/ai-connections/permitted-providers',
    group: 'ai',
    operationId: 'listTenantPermittedAiProviders',
    summary: `Provider kinds this build can call and the tenant’s AI policy permits ${WHO}`,
    tag: TAG,
    params: TenantParams,
    responses: { 200: { description: 'Provider kinds.', schema: PermittedProvidersView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.listTenantPermittedAiProviders(actor, params.tenantId),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/ai-connections/probe',
    group: 'ai',
    operationId: 'probeTenantAiConnection',
    summary: `Try an unsaved tenant connection with one cheap authenticated call ${WHO}`,
    tag: TAG,
    params: TenantParams,
    body: AiProbeInput,
    responses: {
      200: { description: 'The probe result; a provider failure is `status: failed`.', schema: AiProbeResultView },
      ...errors(403, 404),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.probeTenantAiConnection(actor, params.tenantId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/ai-connections/discover-models',
    group: 'ai',
    operationId: 'discoverTenantAiModels',
    summary: `List the models an unsaved tenant connection offers, shaped as configured models ${WHO}`,
    tag: TAG,
    params: TenantParams,
    body: AiProbeInput,
    responses: { 200: { description: 'Discovered models.', schema: AiDiscoveryResultView }, ...errors(403, 404) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.discoverTenantAiModels(actor, params.tenantId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/ai-connections',
    group: 'ai',
    operationId: 'createTenantAiConnection',
    summary: `Create a tenant-owned AI connection (inactive, never verified; Commercial, not the System tenant) ${WHO}`,
    tag: TAG,
    params: TenantParams,
    body: CreateAiConnectionInput,
    responses: { 201: { description: 'Created.', schema: AiConnectionView }, ...errors(400, 403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.ai.createTenantAiConnection(actor, params.tenantId, body),
    }),
  }),
  route({
    method: 'get',
    path: '/tenants/{tenantId}/ai-connections',
    group: 'ai',
    operationId: 'listTenantAiConnections',
    summary: `The tenant’s own AI connections (not its clients’), oldest first ${WHO}`,
    tag: TAG,
    params: TenantParams,
    query: PageQuery,
    responses: { 200: { description: 'A page of profiles.', schema: AiConnectionList }, ...errors(403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.ai.listTenantAiConnections(actor, params.tenantId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/tenants/{tenantId}/ai-connections/{connectionId}',
    group: 'ai',
    operationId: 'getTenantAiConnection',
    summary: `Read a tenant-owned AI connection ${WHO}`,
    tag: TAG,
    params: TenantAiConnectionParams,
    responses: { 200: { description: 'The profile.', schema: AiConnectionView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.getTenantAiConnection(actor, params.tenantId, params.connectionId),
    }),
  }),
  route({
    method: 'patch',
    path: '/tenants/{tenantId}/ai-connections/{connectionId}',
    group: 'ai',
    operationId: 'patchTenantAiConnection',
    summary: `Change a tenant-owned profile; a change to endpoint, auth, headers, query, models or bindings resets verification ${WHO}`,
    tag: TAG,
    params: TenantAiConnectionParams,
    body: PatchAiConnectionInput,
    responses: { 200: { description: 'The profile as changed.', schema: AiConnectionView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.patchTenantAiConnection(actor, params.tenantId, params.connectionId, body),
    }),
  }),
  route({
    method: 'delete',
    path: '/tenants/{tenantId}/ai-connections/{connectionId}',
    group: 'ai',
    operationId: 'deleteTenantAiConnection',
    summary: `Delete a tenant-owned profile no logical model points at ${WHO}`,
    tag: TAG,
    params: TenantAiConnectionParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params }) => {
      await core.ai.deleteTenantAiConnection(actor, params.tenantId, params.connectionId);
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/ai-connections/{connectionId}/catalog-models',
    group: 'ai',
    operationId: 'attachTenantCatalogModel',
    summary: `Add a model from the tenant's catalog to a tenant-owned profile's configured models ${WHO}`,
    tag: TAG,
    params: TenantAiConnectionParams,
    body: AttachCatalogModelInput,
    responses: {
      200: {
        description: 'The profile with the model added; verification is reset and the profile is inactive.',
        schema: AiConnectionView,
      },
      ...errors(400, 403, 404, 409),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.attachTenantCatalogModel(actor, params.tenantId, params.connectionId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/ai-connections/{connectionId}/verify',
    group: 'ai',
    operationId: 'verifyTenantAiConnection',
    summary: `Probe a tenant-owned profile and check each configured model; stores the verification snapshot ${WHO}`,
    tag: TAG,
    params: TenantAiConnectionParams,
    responses: {
      200: { description: 'The stored verification (`verified` or `failed`).', schema: AiVerificationView },
      ...errors(403, 404, 409),
    },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.verifyTenantAiConnection(actor, params.tenantId, params.connectionId),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/ai-connections/{connectionId}/activate',
    group: 'ai',
    operationId: 'activateTenantAiConnection',
    summary: `Activate a tenant-owned profile whose last verification succeeded and that has not changed since ${WHO}`,
    tag: TAG,
    params: TenantAiConnectionParams,
    responses: { 200: { description: 'The active profile.', schema: AiConnectionView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.activateTenantAiConnection(actor, params.tenantId, params.connectionId),
    }),
  }),
  route({
    method: 'post',
    path: '/tenants/{tenantId}/ai-connections/{connectionId}/deactivate',
    group: 'ai',
    operationId: 'deactivateTenantAiConnection',
    summary: `Deactivate a tenant-owned profile: no catalog entry resolves to it any more ${WHO}`,
    tag: TAG,
    params: TenantAiConnectionParams,
    responses: { 200: { description: 'The inactive profile.', schema: AiConnectionView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.deactivateTenantAiConnection(actor, params.tenantId, params.connectionId),
    }),
  }),
];
