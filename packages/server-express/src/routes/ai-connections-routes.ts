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
  TenantAiPolicyInput,
  TenantAiPolicyView,
} from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { AiConnectionParams, ClientParams, PageQuery, TenantParams } from './params.js';

const TAG = 'AI connections';

/** AI connection profiles of a client (ClientAdministrator). Static segments come before `{connectionId}`. */
export const aiConnectionsRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/clients/{clientId}/ai-connections/permitted-providers',
    group: 'ai',
    operationId: 'listPermittedAiProviders',
    summary: 'Provider kinds this build can call and the tenant permits, with their protocol modes',
    tag: TAG,
    params: ClientParams,
    responses: { 200: { description: 'Provider kinds.', schema: PermittedProvidersView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.listPermittedAiProviders(actor, params.clientId),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/ai-connections/probe',
    group: 'ai',
    operationId: 'probeAiConnection',
    summary: 'Try an unsaved connection with one cheap authenticated call',
    tag: TAG,
    params: ClientParams,
    body: AiProbeInput,
    responses: {
      200: { description: 'The probe result; a provider failure is `status: failed`.', schema: AiProbeResultView },
      ...errors(403, 404),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.probeAiConnection(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/ai-connections/discover-models',
    group: 'ai',
    operationId: 'discoverAiModels',
    summary: 'List the models an unsaved connection offers, shaped as configured models',
    tag: TAG,
    params: ClientParams,
    body: AiProbeInput,
    responses: { 200: { description: 'Discovered models.', schema: AiDiscoveryResultView }, ...errors(403, 404) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.discoverAiModels(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/ai-connections',
    group: 'ai',
    operationId: 'createAiConnection',
    summary: 'Create an AI connection profile (inactive, never verified)',
    tag: TAG,
    params: ClientParams,
    body: CreateAiConnectionInput,
    responses: { 201: { description: 'Created.', schema: AiConnectionView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.ai.createAiConnection(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/ai-connections',
    group: 'ai',
    operationId: 'listAiConnections',
    summary: 'The client’s AI connection profiles, oldest first',
    tag: TAG,
    params: ClientParams,
    query: PageQuery,
    responses: { 200: { description: 'A page of profiles.', schema: AiConnectionList }, ...errors(403, 404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.ai.listAiConnections(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: '/clients/{clientId}/ai-connections/{connectionId}',
    group: 'ai',
    operationId: 'getAiConnection',
    summary: 'Read an AI connection profile',
    tag: TAG,
    params: AiConnectionParams,
    responses: { 200: { description: 'The profile.', schema: AiConnectionView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.getAiConnection(actor, params.clientId, params.connectionId),
    }),
  }),
  route({
    method: 'patch',
    path: '/clients/{clientId}/ai-connections/{connectionId}',
    group: 'ai',
    operationId: 'patchAiConnection',
    summary: 'Change a profile; a change to endpoint, auth, headers, query, models or bindings resets verification',
    tag: TAG,
    params: AiConnectionParams,
    body: PatchAiConnectionInput,
    responses: { 200: { description: 'The profile as changed.', schema: AiConnectionView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.patchAiConnection(actor, params.clientId, params.connectionId, body),
    }),
  }),
  route({
    method: 'delete',
    path: '/clients/{clientId}/ai-connections/{connectionId}',
    group: 'ai',
    operationId: 'deleteAiConnection',
    summary: 'Delete a profile no logical model points at',
    tag: TAG,
    params: AiConnectionParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params }) => {
      await core.ai.deleteAiConnection(actor, params.clientId, params.connectionId);
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/ai-connections/{connectionId}/catalog-models',
    group: 'ai',
    operationId: 'attachCatalogModel',
    summary:
      'Add a model from the catalog to the profile’s configured models, with its metadata and prices (ClientAdministrator, both editions)',
    tag: TAG,
    params: AiConnectionParams,
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
      body: await core.ai.attachCatalogModel(actor, params.clientId, params.connectionId, body),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/ai-connections/{connectionId}/verify',
    group: 'ai',
    operationId: 'verifyAiConnection',
    summary: 'Probe the profile and check each configured model; stores the verification snapshot',
    tag: TAG,
    params: AiConnectionParams,
    responses: {
      200: { description: 'The stored verification (`verified` or `failed`).', schema: AiVerificationView },
      ...errors(403, 404, 409),
    },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.verifyAiConnection(actor, params.clientId, params.connectionId),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/ai-connections/{connectionId}/activate',
    group: 'ai',
    operationId: 'activateAiConnection',
    summary: 'Activate a profile whose last verification succeeded and that has not changed since',
    tag: TAG,
    params: AiConnectionParams,
    responses: { 200: { description: 'The active profile.', schema: AiConnectionView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.activateAiConnection(actor, params.clientId, params.connectionId),
    }),
  }),
  route({
    method: 'post',
    path: '/clients/{clientId}/ai-connections/{connectionId}/deactivate',
    group: 'ai',
    operationId: 'deactivateAiConnection',
    summary: 'Deactivate a profile: nothing resolves to it any more',
    tag: TAG,
    params: AiConnectionParams,
    responses: { 200: { description: 'The inactive profile.', schema: AiConnectionView }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.deactivateAiConnection(actor, params.clientId, params.connectionId),
    }),
  }),
  route({
    method: 'get',
    path: '/admin/tenants/{tenantId}/ai-policy',
    group: 'ai',
    operationId: 'getTenantAiPolicy',
    summary: 'The provider kinds and hosts the tenant’s AI connections may use (tenant administrator)',
    tag: TAG,
    params: TenantParams,
    responses: {
      200: { description: 'The policy; null lists: unrestricted.', schema: TenantAiPolicyView },
      ...errors(403, 404),
    },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.ai.getTenantAiPolicy(actor, params.tenantId),
    }),
  }),
  route({
    method: 'put',
    path: '/admin/tenants/{tenantId}/ai-policy',
    group: 'ai',
    operationId: 'putTenantAiPolicy',
    summary:
      'Set the tenant’s AI policy, enforced when a profile is saved and before it is used (platform administrator, Commercial)',
    tag: TAG,
    params: TenantParams,
    body: TenantAiPolicyInput,
    responses: {
      200: { description: 'The policy as stored.', schema: TenantAiPolicyView },
      ...errors(400, 403, 404, 409),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.ai.putTenantAiPolicy(actor, params.tenantId, body),
    }),
  }),
];
