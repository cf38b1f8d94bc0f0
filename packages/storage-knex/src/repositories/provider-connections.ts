import {
  type AuthenticationKind,
  MarginError,
  type ProviderConnectionPatch,
  type ProviderConnectionRecord,
  type ProviderConnectionsRepository,
  type ProviderFailure,
  type ProviderFamily,
  type VerificationStatus,
} from '@margin/core/spec';
import { readBool, readTime, readTimeOrNull } from '../dialect.js';
import { byCreatedAt, keysetPage } from '../paging.js';
import { columnsOf, conflictOnDuplicate, type Db, numberOrNull, type Row, textOrNull, updateAndRead } from '../rows.js';

const duplicateConnection = () =>
  MarginError.conflict('This client already has a connection of this provider family to this host.');

export const connectionFromRow = (row: Row, prefix = ''): ProviderConnectionRecord => ({
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

export const CONNECTION_FIELDS = Object.values(CONNECTION_COLUMNS).concat([
  'id',
  'client_id',
  'provider_family',
  'authentication_kind',
  'created_at',
]);

export function knexProviderConnections(db: Db): ProviderConnectionsRepository {
  const table = () => db('provider_connections');
  return {
    async insert(c) {
      await conflictOnDuplicate(
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
      return updateAndRead(
        table,
        id,
        columnsOf(patch, CONNECTION_COLUMNS),
        (row) => connectionFromRow(row),
        duplicateConnection,
      );
    },
    async delete(id) {
      // Scopes and the reviewer identity go by ON DELETE CASCADE.
      return (await table().where({ id }).delete()) > 0;
    },
    async listForClient(clientId, page) {
      return keysetPage(table().where({ client_id: clientId }), byCreatedAt(), page, (row) => connectionFromRow(row));
    },
  };
}
