import {
  type AuthenticationKind,
  decodeCursor,
  MarginError,
  type PageRequest,
  type ProviderConnectionPatch,
  type ProviderConnectionRecord,
  type ProviderConnectionsRepository,
  type ProviderFailure,
  type ProviderFamily,
  type ProviderScopePatch,
  type ProviderScopeRecord,
  type ProviderScopesRepository,
  type ReviewerIdentitiesRepository,
  type ReviewerIdentityRecord,
  type ScopeType,
  toPage,
  type VerificationStatus,
} from '@margin/core';
import type { Knex } from 'knex';
import { isUniqueViolation, readBool, readTime, readTimeOrNull } from '../dialect.js';

type Db = Knex | Knex.Transaction;
type Row = Record<string, unknown>;

const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
// pg returns bigint columns as strings.
const numberOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

const duplicateConnection = () =>
  MarginError.conflict('This client already has a connection of this provider family to this host.');
const duplicateScope = () => MarginError.conflict('This provider connection already has a scope with this path.');

async function unique<T>(write: Promise<T>, conflict: () => MarginError): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

/** Keyset paging on (created_at, id), oldest first. */
function pageQuery(query: Knex.QueryBuilder, page: PageRequest, prefix = ''): Knex.QueryBuilder {
  const after = decodeCursor(page.cursor);
  query.orderBy([{ column: `${prefix}created_at` }, { column: `${prefix}id` }]).limit(page.limit + 1);
  if (after) {
    query.where((q) =>
      q
        .where(`${prefix}created_at`, '>', after.key)
        .orWhere((q2) => q2.where(`${prefix}created_at`, after.key).andWhere(`${prefix}id`, '>', after.id)),
    );
  }
  return query;
}

const connectionFromRow = (row: Row, prefix = ''): ProviderConnectionRecord => ({
  id: String(row[`${prefix}id`]),
  clientId: String(row[`${prefix}client_id`]),
  providerFamily: String(row[`${prefix}provider_family`]) as ProviderFamily,
  authenticationKind: String(row[`${prefix}authentication_kind`]) as AuthenticationKind,
  hostBaseUrl: String(row[`${prefix}host_base_url`]),
  hostKey: String(row[`${prefix}host_key`]),
  displayName: String(row[`${prefix}display_name`]),
  isActive: readBool(row[`${prefix}is_active`]),
  oAuthTenantId: textOrNull(row[`${prefix}o_auth_tenant_id`]),
  oAuthClientId: textOrNull(row[`${prefix}o_auth_client_id`]),
  hostedAppId: numberOrNull(row[`${prefix}hosted_app_id`]),
  hostedAppInstallationId: numberOrNull(row[`${prefix}hosted_app_installation_id`]),
  sealedSecret: String(row[`${prefix}sealed_secret`]),
  verificationStatus: String(row[`${prefix}verification_status`]) as VerificationStatus,
  lastVerifiedAt: readTimeOrNull(row[`${prefix}last_verified_at`]),
  lastVerificationError: textOrNull(row[`${prefix}last_verification_error`]),
  lastVerificationFailureCategory: textOrNull(
    row[`${prefix}last_verification_failure_category`],
  ) as ProviderFailure | null,
  createdAt: readTime(row[`${prefix}created_at`]),
  updatedAt: readTime(row[`${prefix}updated_at`]),
});

const CONNECTION_COLUMNS: Record<keyof ProviderConnectionPatch, string> = {
  hostBaseUrl: 'host_base_url',
  hostKey: 'host_key',
  displayName: 'display_name',
  isActive: 'is_active',
  oAuthTenantId: 'o_auth_tenant_id',
  oAuthClientId: 'o_auth_client_id',
  hostedAppId: 'hosted_app_id',
  hostedAppInstallationId: 'hosted_app_installation_id',
  sealedSecret: 'sealed_secret',
  verificationStatus: 'verification_status',
  lastVerifiedAt: 'last_verified_at',
  lastVerificationError: 'last_verification_error',
  lastVerificationFailureCategory: 'last_verification_failure_category',
  updatedAt: 'updated_at',
};

/** The columns a patch sets; `undefined` leaves a column alone, `null` clears it. */
function columnsOf<P extends object>(patch: P, columns: Record<keyof P, string>): Row {
  const row: Row = {};
  for (const [key, value] of Object.entries(patch)) {
    const column = columns[key as keyof P];
    if (column && value !== undefined) row[column] = value;
  }
  return row;
}

export function knexProviderConnections(db: Db): ProviderConnectionsRepository {
  const table = () => db('provider_connections');
  return {
    async insert(c) {
      await unique(
        table().insert({
          id: c.id,
          client_id: c.clientId,
          provider_family: c.providerFamily,
          authentication_kind: c.authenticationKind,
          host_base_url: c.hostBaseUrl,
          host_key: c.hostKey,
          display_name: c.displayName,
          is_active: c.isActive,
          o_auth_tenant_id: c.oAuthTenantId,
          o_auth_client_id: c.oAuthClientId,
          hosted_app_id: c.hostedAppId,
          hosted_app_installation_id: c.hostedAppInstallationId,
          sealed_secret: c.sealedSecret,
          verification_status: c.verificationStatus,
          last_verified_at: c.lastVerifiedAt,
          last_verification_error: c.lastVerificationError,
          last_verification_failure_category: c.lastVerificationFailureCategory,
          created_at: c.createdAt,
          updated_at: c.updatedAt,
        }),
        duplicateConnection,
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && connectionFromRow(row);
    },
    async countForClient(clientId) {
      const row = (await table().where({ client_id: clientId }).count({ n: '*' }).first()) as { n: unknown };
      return Number(row.n);
    },
    async update(id, patch) {
      const row = columnsOf(patch, CONNECTION_COLUMNS);
      if (Object.keys(row).length > 0) await unique(table().where({ id }).update(row), duplicateConnection);
      const updated = await table().where({ id }).first();
      return updated && connectionFromRow(updated);
    },
    async delete(id) {
      // Scopes and the reviewer identity go by ON DELETE CASCADE.
      return (await table().where({ id }).delete()) > 0;
    },
    async listForClient(clientId, page) {
      const rows = (await pageQuery(table().where({ client_id: clientId }), page)).map((r: Row) =>
        connectionFromRow(r),
      );
      return toPage(rows, page.limit, (c) => ({ key: c.createdAt, id: c.id }));
    },
  };
}

const scopeFromRow = (row: Row, prefix = ''): ProviderScopeRecord => ({
  id: String(row[`${prefix}id`]),
  connectionId: String(row[`${prefix}connection_id`]),
  clientId: String(row[`${prefix}client_id`]),
  scopeType: String(row[`${prefix}scope_type`]) as ScopeType,
  externalScopeId: textOrNull(row[`${prefix}external_scope_id`]),
  scopePath: String(row[`${prefix}scope_path`]),
  scopePathKey: String(row[`${prefix}scope_path_key`]),
  displayName: String(row[`${prefix}display_name`]),
  isEnabled: readBool(row[`${prefix}is_enabled`]),
  createdAt: readTime(row[`${prefix}created_at`]),
  updatedAt: readTime(row[`${prefix}updated_at`]),
});

const SCOPE_COLUMNS: Record<keyof ProviderScopePatch, string> = {
  scopeType: 'scope_type',
  externalScopeId: 'external_scope_id',
  scopePath: 'scope_path',
  scopePathKey: 'scope_path_key',
  displayName: 'display_name',
  isEnabled: 'is_enabled',
  updatedAt: 'updated_at',
};

const SCOPE_FIELDS = Object.values(SCOPE_COLUMNS).concat(['id', 'connection_id', 'client_id', 'created_at']);
const CONNECTION_FIELDS = Object.values(CONNECTION_COLUMNS).concat([
  'id',
  'client_id',
  'provider_family',
  'authentication_kind',
  'created_at',
]);

export function knexProviderScopes(db: Db): ProviderScopesRepository {
  const table = () => db('provider_scopes');
  return {
    async insert(s) {
      await unique(
        table().insert({
          id: s.id,
          connection_id: s.connectionId,
          client_id: s.clientId,
          scope_type: s.scopeType,
          external_scope_id: s.externalScopeId,
          scope_path: s.scopePath,
          scope_path_key: s.scopePathKey,
          display_name: s.displayName,
          is_enabled: s.isEnabled,
          created_at: s.createdAt,
          updated_at: s.updatedAt,
        }),
        duplicateScope,
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && scopeFromRow(row);
    },
    async findWithConnection(scopeId) {
      // One round trip: discovery and the review worker start here.
      const row = await db('provider_scopes as s')
        .join('provider_connections as c', 'c.id', 's.connection_id')
        .where('s.id', scopeId)
        .first([...SCOPE_FIELDS.map((f) => `s.${f} as s_${f}`), ...CONNECTION_FIELDS.map((f) => `c.${f} as c_${f}`)]);
      return row && { scope: scopeFromRow(row, 's_'), connection: connectionFromRow(row, 'c_') };
    },
    async update(id, patch) {
      const row = columnsOf(patch, SCOPE_COLUMNS);
      if (Object.keys(row).length > 0) await unique(table().where({ id }).update(row), duplicateScope);
      const updated = await table().where({ id }).first();
      return updated && scopeFromRow(updated);
    },
    async delete(id) {
      return (await table().where({ id }).delete()) > 0;
    },
    async listForConnection(connectionId, page) {
      const rows = (await pageQuery(table().where({ connection_id: connectionId }), page)).map((r: Row) =>
        scopeFromRow(r),
      );
      return toPage(rows, page.limit, (s) => ({ key: s.createdAt, id: s.id }));
    },
    async firstEnabled(connectionId) {
      const row = await table()
        .where({ connection_id: connectionId, is_enabled: true })
        .orderBy([{ column: 'created_at' }, { column: 'id' }])
        .first();
      return row && scopeFromRow(row);
    },
  };
}

const identityFromRow = (row: Row): ReviewerIdentityRecord => ({
  connectionId: String(row.connection_id),
  clientId: String(row.client_id),
  externalUserId: String(row.external_user_id),
  login: String(row.login),
  displayName: String(row.display_name),
  isBot: readBool(row.is_bot),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

export function knexReviewerIdentities(db: Db): ReviewerIdentitiesRepository {
  const table = () => db('reviewer_identities');
  return {
    async put(r) {
      // The original created_at survives a replacement: the merge leaves it out.
      await table()
        .insert({
          connection_id: r.connectionId,
          client_id: r.clientId,
          external_user_id: r.externalUserId,
          login: r.login,
          display_name: r.displayName,
          is_bot: r.isBot,
          created_at: r.createdAt,
          updated_at: r.updatedAt,
        })
        .onConflict('connection_id')
        .merge(['external_user_id', 'login', 'display_name', 'is_bot', 'updated_at']);
      const row = await table().where({ connection_id: r.connectionId }).first();
      return identityFromRow(row);
    },
    async findByConnection(connectionId) {
      const row = await table().where({ connection_id: connectionId }).first();
      return row && identityFromRow(row);
    },
  };
}
