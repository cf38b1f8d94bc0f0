import type { Page, PageRequest, ProviderFailure } from '../kernel/index.js';
import { VERIFICATION_STATUSES, type VerificationStatus } from '../kernel/index.js';
import type { AuthenticationKind, ProviderFamily } from '../scm-provider/index.js';

export const SCOPE_TYPES = ['organization', 'project', 'repository'] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];

/** A client's connection to one source-control host. The secret is stored sealed, never in plaintext. */
export interface ProviderConnectionRecord {
  id: string;
  clientId: string;
  providerFamily: ProviderFamily;
  authenticationKind: AuthenticationKind;
  /** As the adapters take it: scheme, host, port and path, without a trailing slash. */
  hostBaseUrl: string;
  /** `hostBaseUrl` lower-cased: one connection per client, family and host key. */
  hostKey: string;
  displayName: string;
  isActive: boolean;
  oAuthTenantId: string | null;
  oAuthClientId: string | null;
  hostedAppId: number | null;
  hostedAppInstallationId: number | null;
  /** `SecretBox.seal` output. */
  sealedSecret: string;
  verificationStatus: VerificationStatus;
  lastVerifiedAt: string | null;
  lastVerificationError: string | null;
  lastVerificationFailureCategory: ProviderFailure | null;
  createdAt: string;
  updatedAt: string;
}

export type ProviderConnectionPatch = Partial<
  Pick<
    ProviderConnectionRecord,
    | 'hostBaseUrl'
    | 'hostKey'
    | 'displayName'
    | 'isActive'
    | 'oAuthTenantId'
    | 'oAuthClientId'
    | 'hostedAppId'
    | 'hostedAppInstallationId'
    | 'sealedSecret'
    | 'verificationStatus'
    | 'lastVerifiedAt'
    | 'lastVerificationError'
    | 'lastVerificationFailureCategory'
    | 'updatedAt'
  >
>;

/** Where on a connection's host reviews happen: an organization, project or repository URL. */
export interface ProviderScopeRecord {
  id: string;
  connectionId: string;
  /** Copied from the connection, so a client's scope is found by id alone. */
  clientId: string;
  scopeType: ScopeType;
  externalScopeId: string | null;
  /** As entered, without a trailing slash; configurations match it exactly. */
  scopePath: string;
  /** `scopePath` lower-cased: unique per connection. */
  scopePathKey: string;
  displayName: string;
  isEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export type ProviderScopePatch = Partial<
  Pick<
    ProviderScopeRecord,
    'scopeType' | 'externalScopeId' | 'scopePath' | 'scopePathKey' | 'displayName' | 'isEnabled' | 'updatedAt'
  >
>;

/** The provider account Margin's comments appear under, one per connection. */
export interface ReviewerIdentityRecord {
  connectionId: string;
  clientId: string;
  externalUserId: string;
  login: string;
  displayName: string;
  isBot: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ProviderConnectionsRepository {
  /** Throws `conflict` when the client already has a connection of that family with that host key. */
  insert(connection: ProviderConnectionRecord): Promise<void>;
  findById(id: string): Promise<ProviderConnectionRecord | undefined>;
  countForClient(clientId: string): Promise<number>;
  /** Throws `conflict` when a new host key collides with another connection of the client and family. */
  update(id: string, patch: ProviderConnectionPatch): Promise<ProviderConnectionRecord | undefined>;
  /** Removes the connection with its scopes and reviewer identity. */
  delete(id: string): Promise<boolean>;
  /** Oldest first. */
  listForClient(clientId: string, page: PageRequest): Promise<Page<ProviderConnectionRecord>>;
}

export interface ProviderScopesRepository {
  /** Throws `conflict` when the connection already has a scope with that path key. */
  insert(scope: ProviderScopeRecord): Promise<void>;
  findById(id: string): Promise<ProviderScopeRecord | undefined>;
  /** The scope and its connection, read together. */
  findWithConnection(
    scopeId: string,
  ): Promise<{ scope: ProviderScopeRecord; connection: ProviderConnectionRecord } | undefined>;
  /** Throws `conflict` when a new path key collides with another scope of the connection. */
  update(id: string, patch: ProviderScopePatch): Promise<ProviderScopeRecord | undefined>;
  delete(id: string): Promise<boolean>;
  /** Oldest first. */
  listForConnection(connectionId: string, page: PageRequest): Promise<Page<ProviderScopeRecord>>;
  /** The oldest enabled scope of the connection. */
  firstEnabled(connectionId: string): Promise<ProviderScopeRecord | undefined>;
}

export interface ReviewerIdentitiesRepository {
  /** Inserts or replaces the connection's identity; a replacement keeps the original `createdAt`. */
  put(identity: ReviewerIdentityRecord): Promise<ReviewerIdentityRecord>;
  findByConnection(connectionId: string): Promise<ReviewerIdentityRecord | undefined>;
}

export { VERIFICATION_STATUSES, type VerificationStatus };
