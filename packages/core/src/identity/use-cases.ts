import type { Actor } from '../kernel/index.js';
import { authenticateAccessToken, authenticatePersonalAccessToken } from './authenticate.js';
import { type BootstrapAdminInput, type BootstrapAdminResult, ensureBootstrapAdmin } from './bootstrap-admin.js';
import type { IdentityDeps } from './identity-deps.js';
import * as idps from './identity-providers.js';
import { getMe } from './me.js';

import * as members from './members.js';
import * as pats from './personal-access-tokens.js';
import type {
  IdentityProviderListBody,
  IdentityProviderViewBody,
  MemberListBody,
  MemberViewBody,
  MeViewBody,
  PatCreatedBody,
  PatListBody,
  UserListBody,
  UserViewBody,
} from './schemas.js';
import * as sessions from './sessions.js';
import * as sso from './sso-sign-in.js';
import * as users from './users.js';

/** Users, their credentials and sessions, and who is a member of which client and tenant. */
export interface IdentityUseCases {
  /** For hosts at start: seeds the platform administrator while no active one exists. */
  ensureBootstrapAdmin(input: BootstrapAdminInput): Promise<BootstrapAdminResult>;
  login(input: unknown, context: sessions.SignInContext): Promise<sessions.SessionTokens>;
  refreshSession(refreshToken: string | undefined): Promise<sessions.SessionTokens>;
  /** `input` is the request body (`{ refreshToken? }`, validated); the cookie's token wins when both are there. */
  logout(input: unknown, cookieToken?: string): Promise<void>;
  changeMyPassword(actor: Actor, input: unknown): Promise<void>;
  /** For hosts: who a bearer access token belongs to (401 when it does not verify). */
  authenticateAccessToken(token: string): Promise<Actor>;
  /** For hosts: who an `X-User-Pat` token belongs to. */
  authenticatePersonalAccessToken(token: string): Promise<Actor>;
  getMe(actor: Actor): Promise<MeViewBody>;
  createPersonalAccessToken(actor: Actor, input: unknown): Promise<PatCreatedBody>;
  listPersonalAccessTokens(actor: Actor, query: unknown): Promise<PatListBody>;
  revokePersonalAccessToken(actor: Actor, patId: string): Promise<void>;
  createUser(actor: Actor, input: unknown): Promise<UserViewBody>;
  listUsers(actor: Actor, query: unknown): Promise<UserListBody>;
  patchUser(actor: Actor, userId: string, input: unknown): Promise<UserViewBody>;
  putClientMember(actor: Actor, clientId: string, userId: string, input: unknown): Promise<MemberViewBody>;
  listClientMembers(actor: Actor, clientId: string, query: unknown): Promise<MemberListBody>;
  removeClientMember(actor: Actor, clientId: string, userId: string): Promise<void>;
  putTenantMember(actor: Actor, tenantId: string, userId: string, input: unknown): Promise<MemberViewBody>;
  listTenantMembers(actor: Actor, tenantId: string, query: unknown): Promise<MemberListBody>;
  removeTenantMember(actor: Actor, tenantId: string, userId: string): Promise<void>;
  createIdentityProvider(actor: Actor, tenantId: string, input: unknown): Promise<IdentityProviderViewBody>;
  listIdentityProviders(actor: Actor, tenantId: string, query: unknown): Promise<IdentityProviderListBody>;
  patchIdentityProvider(
    actor: Actor,
    tenantId: string,
    providerId: string,
    input: unknown,
  ): Promise<IdentityProviderViewBody>;
  deleteIdentityProvider(actor: Actor, tenantId: string, providerId: string): Promise<void>;
  /** Public: a tenant's enabled providers by slug, for the sign-in page (the host adds each `startUrl`). */
  listSignInProviders(query: unknown): Promise<{ providers: Array<{ id: string; displayName: string }> }>;
  /** For hosts: what the OpenID Connect client needs to start a sign-in (refusals carry `ssoError`). */
  ssoClientConfig(providerId: string): Promise<sso.SsoClientConfig>;
  /** For hosts: a session for the subject of a validated ID token (refusals carry `ssoError`). */
  completeSsoSignIn(providerId: string, claims: sso.VerifiedSsoClaims): Promise<sessions.SessionTokens>;
}

export function createIdentityUseCases(deps: IdentityDeps): IdentityUseCases {
  return {
    ensureBootstrapAdmin: (input) => ensureBootstrapAdmin(deps, input),
    login: (input, context) => sessions.login(deps, input, context),
    refreshSession: (refreshToken) => sessions.refresh(deps, refreshToken),
    logout: (input, cookieToken) => sessions.logout(deps, input, cookieToken),
    changeMyPassword: (actor, input) => sessions.changeOwnPassword(deps, actor, input),
    authenticateAccessToken: (token) => authenticateAccessToken(deps, token),
    authenticatePersonalAccessToken: (token) => authenticatePersonalAccessToken(deps, token),
    getMe: (actor) => getMe(deps, actor),
    createPersonalAccessToken: (actor, input) => pats.createPersonalAccessToken(deps, actor, input),
    listPersonalAccessTokens: (actor, query) => pats.listPersonalAccessTokens(deps, actor, query),
    revokePersonalAccessToken: (actor, patId) => pats.revokePersonalAccessToken(deps, actor, patId),
    createUser: (actor, input) => users.createUser(deps, actor, input),
    listUsers: (actor, query) => users.listUsers(deps, actor, query),
    patchUser: (actor, userId, input) => users.patchUser(deps, actor, userId, input),
    putClientMember: (actor, clientId, userId, input) => members.putClientMember(deps, actor, clientId, userId, input),
    listClientMembers: (actor, clientId, query) => members.listClientMembers(deps, actor, clientId, query),
    removeClientMember: (actor, clientId, userId) => members.removeClientMember(deps, actor, clientId, userId),
    putTenantMember: (actor, tenantId, userId, input) => members.putTenantMember(deps, actor, tenantId, userId, input),
    listTenantMembers: (actor, tenantId, query) => members.listTenantMembers(deps, actor, tenantId, query),
    removeTenantMember: (actor, tenantId, userId) => members.removeTenantMember(deps, actor, tenantId, userId),
    createIdentityProvider: (actor, tenantId, input) => idps.createIdentityProvider(deps, actor, tenantId, input),
    listIdentityProviders: (actor, tenantId, query) => idps.listIdentityProviders(deps, actor, tenantId, query),
    patchIdentityProvider: (actor, tenantId, providerId, input) =>
      idps.patchIdentityProvider(deps, actor, tenantId, providerId, input),
    deleteIdentityProvider: (actor, tenantId, providerId) =>
      idps.deleteIdentityProvider(deps, actor, tenantId, providerId),
    listSignInProviders: (query) => idps.listSignInProviders(deps, query),
    ssoClientConfig: (providerId) => sso.ssoClientConfig(deps, providerId),
    completeSsoSignIn: (providerId, claims) => sso.completeSsoSignIn(deps, providerId, claims),
  };
}
