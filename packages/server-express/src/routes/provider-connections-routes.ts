import {
  CreateProviderConnectionInput,
  CreateProviderScopeInput,
  PatchProviderConnectionInput,
  PatchProviderScopeInput,
  ProviderConnectionList,
  ProviderConnectionView,
  ProviderScopeList,
  ProviderScopeView,
  PutReviewerIdentityInput,
  ResolveReviewerIdentityQuery,
  ReviewerIdentityCandidates,
  ReviewerIdentityView,
} from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { ClientParams, ConnectionParams, PageQuery, ScopeParams } from './params.js';

const TAG = 'Provider connections';
const CONNECTIONS = '/clients/{clientId}/provider-connections';
const CONNECTION = `${CONNECTIONS}/{connectionId}`;

export const providerConnectionsRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: CONNECTIONS,
    group: 'scm',
    operationId: 'createProviderConnection',
    summary:
      'Connect the client to a source-control host (ClientAdministrator; a second connection needs multiple-scm-providers)',
    tag: TAG,
    params: ClientParams,
    body: CreateProviderConnectionInput,
    responses: {
      201: { description: 'Created; the secret is never returned.', schema: ProviderConnectionView },
      ...errors(403, 404, 409),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.scm.createProviderConnection(actor, params.clientId, body),
    }),
  }),
  route({
    method: 'get',
    path: CONNECTIONS,
    group: 'scm',
    operationId: 'listProviderConnections',
    summary: 'The client’s provider connections, oldest first (ClientUser)',
    tag: TAG,
    params: ClientParams,
    query: PageQuery,
    responses: { 200: { description: 'A page of connections.', schema: ProviderConnectionList }, ...errors(404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.scm.listProviderConnections(actor, params.clientId, query),
    }),
  }),
  route({
    method: 'get',
    path: CONNECTION,
    group: 'scm',
    operationId: 'getProviderConnection',
    summary: 'Read a provider connection (ClientUser)',
    tag: TAG,
    params: ConnectionParams,
    responses: { 200: { description: 'The connection.', schema: ProviderConnectionView }, ...errors(404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.scm.getProviderConnection(actor, params.clientId, params.connectionId),
    }),
  }),
  route({
    method: 'patch',
    path: CONNECTION,
    group: 'scm',
    operationId: 'patchProviderConnection',
    summary: 'Change a provider connection; a new host or credentials reset verification (ClientAdministrator)',
    tag: TAG,
    params: ConnectionParams,
    body: PatchProviderConnectionInput,
    responses: {
      200: { description: 'The connection as changed.', schema: ProviderConnectionView },
      ...errors(403, 404, 409),
    },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.scm.patchProviderConnection(actor, params.clientId, params.connectionId, body),
    }),
  }),
  route({
    method: 'delete',
    path: CONNECTION,
    group: 'scm',
    operationId: 'deleteProviderConnection',
    summary: 'Delete a provider connection with its scopes and reviewer identity (ClientAdministrator)',
    tag: TAG,
    params: ConnectionParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.scm.deleteProviderConnection(actor, params.clientId, params.connectionId);
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: `${CONNECTION}/verify`,
    group: 'scm',
    operationId: 'verifyProviderConnection',
    summary:
      'Check the stored credentials with the provider and record the outcome; a refusal is recorded, not an error (ClientAdministrator)',
    tag: TAG,
    params: ConnectionParams,
    responses: {
      200: {
        description: 'The connection with `verificationStatus` `verified` or `failed` and the provider’s answer.',
        schema: ProviderConnectionView,
      },
      ...errors(403, 404),
    },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.scm.verifyProviderConnection(actor, params.clientId, params.connectionId),
    }),
  }),
  route({
    method: 'post',
    path: `${CONNECTION}/scopes`,
    group: 'scm',
    operationId: 'createProviderScope',
    summary: 'Add a scope (organization, project or repository URL) to a connection (ClientAdministrator)',
    tag: TAG,
    params: ConnectionParams,
    body: CreateProviderScopeInput,
    responses: { 201: { description: 'Created.', schema: ProviderScopeView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 201,
      body: await core.scm.createProviderScope(actor, params.clientId, params.connectionId, body),
    }),
  }),
  route({
    method: 'get',
    path: `${CONNECTION}/scopes`,
    group: 'scm',
    operationId: 'listProviderScopes',
    summary: 'A connection’s scopes, oldest first (ClientUser: discovery starts from a scope id)',
    tag: TAG,
    params: ConnectionParams,
    query: PageQuery,
    responses: { 200: { description: 'A page of scopes.', schema: ProviderScopeList }, ...errors(404) },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.scm.listProviderScopes(actor, params.clientId, params.connectionId, query),
    }),
  }),
  route({
    method: 'patch',
    path: `${CONNECTION}/scopes/{scopeId}`,
    group: 'scm',
    operationId: 'patchProviderScope',
    summary: 'Change a scope (ClientAdministrator)',
    tag: TAG,
    params: ScopeParams,
    body: PatchProviderScopeInput,
    responses: { 200: { description: 'The scope as changed.', schema: ProviderScopeView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.scm.patchProviderScope(actor, params.clientId, params.connectionId, params.scopeId, body),
    }),
  }),
  route({
    method: 'delete',
    path: `${CONNECTION}/scopes/{scopeId}`,
    group: 'scm',
    operationId: 'deleteProviderScope',
    summary: 'Delete a scope (ClientAdministrator)',
    tag: TAG,
    params: ScopeParams,
    responses: { 204: { description: 'Deleted.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.scm.deleteProviderScope(actor, params.clientId, params.connectionId, params.scopeId);
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: `${CONNECTION}/reviewer-identities/resolve`,
    group: 'scm',
    operationId: 'resolveReviewerIdentities',
    summary: 'Search the provider’s users to pick the reviewer identity from (ClientAdministrator)',
    tag: TAG,
    params: ConnectionParams,
    query: ResolveReviewerIdentityQuery,
    responses: {
      200: { description: 'Matching provider users.', schema: ReviewerIdentityCandidates },
      ...errors(403, 404, 502),
    },
    handler: async ({ core, actor, params, query }) => ({
      status: 200,
      body: await core.scm.resolveReviewerIdentities(actor, params.clientId, params.connectionId, query),
    }),
  }),
  route({
    method: 'put',
    path: `${CONNECTION}/reviewer-identity`,
    group: 'scm',
    operationId: 'putReviewerIdentity',
    summary: 'Set the account Margin’s review comments appear under, one per connection (ClientAdministrator)',
    tag: TAG,
    params: ConnectionParams,
    body: PutReviewerIdentityInput,
    responses: { 200: { description: 'The reviewer identity.', schema: ReviewerIdentityView }, ...errors(403, 404) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.scm.putReviewerIdentity(actor, params.clientId, params.connectionId, body),
    }),
  }),
  route({
    method: 'get',
    path: `${CONNECTION}/reviewer-identity`,
    group: 'scm',
    operationId: 'getReviewerIdentity',
    summary: 'The connection’s reviewer identity; 404 until one is set (ClientUser)',
    tag: TAG,
    params: ConnectionParams,
    responses: { 200: { description: 'The reviewer identity.', schema: ReviewerIdentityView }, ...errors(404) },
    handler: async ({ core, actor, params }) => ({
      status: 200,
      body: await core.scm.getReviewerIdentity(actor, params.clientId, params.connectionId),
    }),
  }),
];
