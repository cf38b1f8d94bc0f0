import type { SessionTokens } from '@margin/core';
import {
  ChangePasswordInput,
  CreatePatInput,
  LoginInput,
  MeView,
  PatCreated,
  PatList,
  RefreshInput,
  TokenResponse,
} from '@margin/core/schemas';
import type { Request, Response } from 'express';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from '../http/refresh-cookie.js';
import { publicRoute, type RouteSpec, route } from '../http/route.js';
import { errors } from '../openapi/error-body.js';
import { PageQuery, PatParams } from './params.js';

const TAG = 'Authentication';

/** The refresh token goes into the cookie, never into the body (except for body-fallback callers). */
function answerWithSession(req: Request, res: Response, session: SessionTokens, includeRefreshToken = false) {
  setRefreshCookie(req, res, session.refreshToken, session.refreshExpiresAt);
  const body: Record<string, unknown> = {
    accessToken: session.accessToken,
    expiresIn: session.expiresIn,
    tokenType: session.tokenType,
  };
  if (includeRefreshToken) body.refreshToken = session.refreshToken;
  return { status: 200, body, headers: { 'Cache-Control': 'no-store' } };
}

export const authRoutes: RouteSpec[] = [
  publicRoute({
    method: 'post',
    path: '/auth/login',
    group: 'identity',
    operationId: 'login',
    summary: 'Sign in with a username and password',
    tag: TAG,
    rateLimit: 'credentials',
    body: LoginInput,
    responses: {
      200: {
        description: 'Signed in. The refresh token is set as the httpOnly `margin_refresh` cookie.',
        schema: TokenResponse,
      },
      ...errors(401, 429),
    },
    // `req.ip` honours MARGIN_TRUST_PROXY only: the lockout counts per username and this address.
    handler: async ({ core, req, res, body }) =>
      answerWithSession(req, res, await core.identity.login(body, { sourceAddress: req.ip })),
  }),
  publicRoute({
    method: 'post',
    path: '/auth/refresh',
    group: 'identity',
    operationId: 'refreshSession',
    summary: 'Exchange the refresh token for a new access token (the refresh token rotates)',
    tag: TAG,
    rateLimit: 'credentials',
    body: RefreshInput,
    responses: {
      200: { description: 'A new access token and a new refresh cookie.', schema: TokenResponse },
      ...errors(401, 429),
    },
    handler: async ({ core, req, res, body }) => {
      const fromCookie = readRefreshCookie(req);
      const fromBody = RefreshInput.safeParse(body ?? {}).data?.refreshToken;
      const session = await core.identity.refreshSession(fromCookie ?? fromBody);
      return answerWithSession(req, res, session, !fromCookie && fromBody !== undefined);
    },
  }),
  publicRoute({
    method: 'post',
    path: '/auth/logout',
    group: 'identity',
    operationId: 'logout',
    summary: 'End the session of the refresh cookie (or body token) and clear the cookie',
    tag: TAG,
    body: RefreshInput,
    responses: { 204: { description: 'Signed out.' } },
    handler: async ({ core, req, res, body }) => {
      await core.identity.logout(body, readRefreshCookie(req));
      clearRefreshCookie(req, res);
      return { status: 204 };
    },
  }),
  route({
    method: 'get',
    path: '/auth/me',
    group: 'identity',
    operationId: 'getMe',
    summary: 'Who I am: roles, edition and capability states',
    tag: TAG,
    responses: { 200: { description: 'The caller.', schema: MeView } },
    handler: async ({ core, actor }) => ({ status: 200, body: await core.identity.getMe(actor) }),
  }),
  route({
    method: 'post',
    path: '/users/me/password',
    group: 'identity',
    operationId: 'changeMyPassword',
    summary: 'Change my password (ends my other sessions)',
    tag: TAG,
    rateLimit: 'credentials',
    body: ChangePasswordInput,
    responses: { 204: { description: 'Changed.' }, ...errors(403, 429) },
    handler: async ({ core, actor, body }) => {
      await core.identity.changeMyPassword(actor, body);
      return { status: 204 };
    },
  }),
  route({
    method: 'post',
    path: '/users/me/pats',
    group: 'identity',
    operationId: 'createPersonalAccessToken',
    summary: 'Create a personal access token (shown once)',
    tag: TAG,
    body: CreatePatInput,
    responses: {
      201: { description: 'The token; its plaintext is never shown again.', schema: PatCreated },
      ...errors(403),
    },
    handler: async ({ core, actor, body }) => ({
      status: 201,
      body: await core.identity.createPersonalAccessToken(actor, body),
      headers: { 'Cache-Control': 'no-store' },
    }),
  }),
  route({
    method: 'get',
    path: '/users/me/pats',
    group: 'identity',
    operationId: 'listPersonalAccessTokens',
    summary: 'List my usable personal access tokens (no token material)',
    tag: TAG,
    query: PageQuery,
    responses: { 200: { description: 'A page of tokens, newest first.', schema: PatList }, ...errors(400, 403) },
    handler: async ({ core, actor, query }) => ({
      status: 200,
      body: await core.identity.listPersonalAccessTokens(actor, query),
    }),
  }),
  route({
    method: 'delete',
    path: '/users/me/pats/{patId}',
    group: 'identity',
    operationId: 'revokePersonalAccessToken',
    summary: 'Revoke one of my personal access tokens',
    tag: TAG,
    params: PatParams,
    responses: { 204: { description: 'Revoked.' }, ...errors(403, 404) },
    handler: async ({ core, actor, params }) => {
      await core.identity.revokePersonalAccessToken(actor, params.patId);
      return { status: 204 };
    },
  }),
];
