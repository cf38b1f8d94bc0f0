import type { TenantAiPoliciesRepository, TenantAiPolicyRecord } from '@margin/core/spec';
import { type Dialect, readJsonOrNull, readTime, writeJsonOrNull } from '../dialect.js';
import type { Db, Row } from '../rows.js';

const policyFromRow = (row: Row, dialect: Dialect): TenantAiPolicyRecord => ({
  tenantId: String(row.tenant_id),
  permittedProviderKinds: readJsonOrNull<string[]>(row.permitted_provider_kinds, dialect),
  permittedHosts: readJsonOrNull<string[]>(row.permitted_hosts, dialect),
  updatedAt: readTime(row.updated_at),
});

export function knexTenantAiPolicies(db: Db, dialect: Dialect): TenantAiPoliciesRepository {
  return {
    async find(tenantId) {
      const row: Row | undefined = await db('tenant_ai_policies').where({ tenant_id: tenantId }).first();
      return row && policyFromRow(row, dialect);
    },
    async save(p) {
      await db('tenant_ai_policies')
        .insert({
          tenant_id: p.tenantId,
          permitted_provider_kinds: writeJsonOrNull(p.permittedProviderKinds),
          permitted_hosts: writeJsonOrNull(p.permittedHosts),
          updated_at: p.updatedAt,
        })
        .onConflict('tenant_id')
        .merge();
    },
  };
}
