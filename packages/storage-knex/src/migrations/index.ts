import type { Knex } from 'knex';
import { usersAndSettings } from './0001_users_and_settings.js';
import { identityAndTenancy } from './0002_identity_and_tenancy.js';
import { scmConnections } from './0003_scm_connections.js';
import { reviewJobs } from './0004_review_jobs.js';
import { aiConnections } from './0005_ai_connections.js';
import { triggers } from './0006_triggers.js';
import { jobKeysPerClient } from './0007_job_keys_per_client.js';
import { deliveryRetention } from './0008_delivery_retention.js';
import { reviewPublications } from './0009_review_publications.js';
import { reviewFindings } from './0010_review_findings.js';
import { signInFailures } from './0011_sign_in_failures.js';
import { bindSealedSecrets } from './0012_bind_sealed_secrets.js';
import { listIndexes } from './0013_list_indexes.js';
import { wholeRevisionKeys } from './0014_whole_revision_keys.js';
import { usageLedger } from './0020_usage_ledger.js';
import { clientBudgets } from './0021_client_budgets.js';
import { auditTrail } from './0030_audit_trail.js';
import { tenantAiPolicy } from './0040_tenant_ai_policy.js';
import { tenantSignInAndUserEmail } from './0050_tenant_sign_in_and_user_email.js';
import { identityProviders } from './0051_identity_providers.js';
import { conversations } from './0060_conversations.js';
import { threadMemories } from './0070_thread_memories.js';
import { knowledgeIndex } from './0080_knowledge_index.js';
import { inFlightSpend } from './0090_in_flight_spend.js';
import { tenantAiConnections } from './0100_tenant_ai_connections.js';
import { knowledgeInReviews } from './0120_knowledge_in_reviews.js';
import { findingCitations } from './0121_finding_citations.js';
import type { Migration, MigrationContext } from './migration.js';

/** In order. Append only; never edit a migration that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  usersAndSettings,
  identityAndTenancy,
  scmConnections,
  reviewJobs,
  aiConnections,
  triggers,
  jobKeysPerClient,
  deliveryRetention,
  reviewPublications,
  reviewFindings,
  signInFailures,
  bindSealedSecrets,
  listIndexes,
  wholeRevisionKeys,
  usageLedger,
  clientBudgets,
  auditTrail,
  tenantAiPolicy,
  tenantSignInAndUserEmail,
  identityProviders,
  conversations,
  threadMemories,
  knowledgeIndex,
  inFlightSpend,
  tenantAiConnections,
  knowledgeInReviews,
  findingCitations,
];

/** Migrations compiled into the bundle, so no directory scanning is needed at runtime. */
export function migrationSource(context: MigrationContext = {}): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => [...MIGRATIONS],
    getMigrationName: (migration) => migration.name,
    getMigration: async (migration) => ({
      up: (knex: Knex) => migration.up(knex, context),
      down: async () => {
        throw new Error('Margin migrations are forward-only; restore a backup to go back.');
      },
      ...(migration.transaction === false ? { config: { transaction: false } } : {}),
    }),
  };
}
