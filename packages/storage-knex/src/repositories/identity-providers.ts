import {
  type IdentityProviderPatch,
  type IdentityProviderRecord,
  type IdentityProvidersRepository,
  MarginError,
  type UserIdentitiesRepository,
  type UserIdentityRecord,
} from '@margin/core/spec';
import { type Dialect, readBool, readJson, readTime } from '../dialect.js';
import { byCreatedAt, keysetPage } from '../paging.js';
import { columnsOf, conflictOnDuplicate, type Db, type Row, textOrNull, updateAndRead } from '../rows.js';

const providerFromRow = (row: Row, dialect: Dialect): IdentityProviderRecord => ({
  id: String(row.id),
  tenantId: String(row.tenant_id),
  displayName: String(row.display_name),
  issuerUrl: String(row.issuer_url),
  clientId: String(row.client_id),
  sealedClientSecret: textOrNull(row.sealed_client_secret),
  allowedEmailDomains: readJson<string[]>(row.allowed_email_domains, dialect),
  autoCreateUsers: readBool(row.auto_create_users),
  defaultClientRole: row.default_client_role as IdentityProviderRecord['defaultClientRole'],
  isEnabled: readBool(row.is_enabled),
  createdAt: readTime(row.created_at),
  updatedAt: readTime(row.updated_at),
});

const COLUMNS = {
  displayName: 'display_name',
  issuerUrl: 'issuer_url',
  clientId: 'client_id',
  sealedClientSecret: 'sealed_client_secret',
  allowedEmailDomains: { json: 'allowed_email_domains' },
  autoCreateUsers: 'auto_create_users',
  defaultClientRole: 'default_client_role',
  isEnabled: 'is_enabled',
  updatedAt: 'updated_at',
} as const satisfies Record<keyof IdentityProviderPatch, unknown>;

export function knexIdentityProviders(db: Db, dialect: Dialect): IdentityProvidersRepository {
  const table = () => db('identity_providers');
  const fromRow = (row: Row) => providerFromRow(row, dialect);
  return {
    async insert(p) {
      await conflictOnDuplicate(
        table().insert({
          id: p.id,
          tenant_id: p.tenantId,
          created_at: p.createdAt,
          ...columnsOf(p as IdentityProviderPatch, COLUMNS),
        }),
        () => MarginError.conflict('This identity provider exists.'),
      );
    },
    async findById(id) {
      const row = await table().where({ id }).first();
      return row && fromRow(row);
    },
    async listForTenant(tenantId, page) {
      return keysetPage(table().where({ tenant_id: tenantId }), byCreatedAt(), page, fromRow);
    },
    async update(id, patch) {
      return updateAndRead(table, id, columnsOf(patch, COLUMNS), fromRow);
    },
    async delete(id) {
      return (await table().where({ id }).delete()) > 0;
    },
  };
}

const identityFromRow = (row: Row): UserIdentityRecord => ({
  id: String(row.id),
  userId: String(row.user_id),
  identityProviderId: String(row.identity_provider_id),
  issuer: String(row.issuer),
  subject: String(row.subject),
  createdAt: readTime(row.created_at),
});

export function knexUserIdentities(db: Db): UserIdentitiesRepository {
  const table = () => db('user_identities');
  return {
    async insert(i) {
      await conflictOnDuplicate(
        table().insert({
          id: i.id,
          user_id: i.userId,
          identity_provider_id: i.identityProviderId,
          issuer: i.issuer,
          subject: i.subject,
          created_at: i.createdAt,
        }),
        () => MarginError.conflict('This identity is linked to a user already.'),
      );
    },
    async find(issuer, subject) {
      const row = await table().where({ issuer, subject }).first();
      return row && identityFromRow(row);
    },
  };
}
