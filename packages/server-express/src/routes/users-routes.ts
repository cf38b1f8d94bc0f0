import { CreateUserInput, PatchUserInput, UserList, UserView } from '@margin/core/schemas';
import { type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { PageQuery, UserParams } from './params.js';

const TAG = 'Users';

export const usersRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/admin/users',
    group: 'identity',
    operationId: 'createUser',
    summary: 'Create a local user (platform administrator)',
    tag: TAG,
    body: CreateUserInput,
    responses: { 201: { description: 'Created.', schema: UserView }, ...errors(403, 409) },
    handler: async ({ core, actor, body }) => ({ status: 201, body: await core.identity.createUser(actor, body) }),
  }),
  route({
    method: 'get',
    path: '/admin/users',
    group: 'identity',
    operationId: 'listUsers',
    summary: 'List users, oldest first (platform administrator)',
    tag: TAG,
    query: PageQuery,
    responses: { 200: { description: 'A page of users.', schema: UserList }, ...errors(403) },
    handler: async ({ core, actor, query }) => ({ status: 200, body: await core.identity.listUsers(actor, query) }),
  }),
  route({
    method: 'patch',
    path: '/admin/users/{userId}',
    group: 'identity',
    operationId: 'patchUser',
    summary: 'Change a user: active state, password, display name, global role (platform administrator)',
    tag: TAG,
    params: UserParams,
    body: PatchUserInput,
    responses: { 200: { description: 'The user as changed.', schema: UserView }, ...errors(403, 404, 409) },
    handler: async ({ core, actor, params, body }) => ({
      status: 200,
      body: await core.identity.patchUser(actor, params.userId, body),
    }),
  }),
];
