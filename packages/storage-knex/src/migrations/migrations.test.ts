import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { createAesGcmSecretBox } from '@margin/core';
import { type AiConnectionRecord, SYSTEM_TENANT_ID, sealedSecretContext } from '@margin/core/spec';
import { reviewJobRecord } from '@margin/core/testing';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { openKnexStorage } from '../knex-storage.js';
import { createTestDatabase, testDialects } from '../testing/index.js';
import { MIGRATIONS } from './index.js';
import type { Migration } from './migration.js';

/** A source holding only the migrations before `name`, to build the database an upgrade meets. */
const migrationsBefore = (name: string): Knex.MigrationSource<Migration> => ({
  getMigrations: async () =>
    MIGRATIONS.slice(
      0,
      MIGRATIONS.findIndex((m) => m.name === name),
    ),
  getMigrationName: (m) => m.name,
  getMigration: async (m) => ({ up: (knex: Knex) => m.up(knex, {}), down: async () => undefined }),
});

const NOW = '2026-01-01T00:00:00.000Z';
const KEY = Buffer.alloc(32, 9);

/** A value as the unbound `v1:` scheme sealed it, before 0010. */
function legacySeal(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', KEY, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

for (const dialect of testDialects()) {
  describe(`upgrading a ${dialect} database`, () => {
    it('0007 prefixes existing job keys with their client, so clients no longer share revisions', async () => {
      const db = await createTestDatabase(dialect);
      const storage = await openKnexStorage({ url: db.url, migrate: false });
      try {
        await storage.knex.migrate.latest({ migrationSource: migrationsBefore('0007_job_keys_per_client') });
        const clientId = randomUUID();
        await storage.clients.insert({
          id: clientId,
          tenantId: SYSTEM_TENANT_ID,
          displayName: 'Before the upgrade',
          isActive: true,
          createdAt: NOW,
          updatedAt: NOW,
        });
        const job = reviewJobRecord(clientId, {
          reviewRevision: null,
          pullRequestKey: 'gitHostA|https://github.com|42|7',
          revisionKey: 'gitHostA|https://github.com|42|7|*',
        });
        await storage.reviewJobs.insert(job);

        expect(await storage.migrate()).toContain('0007_job_keys_per_client');
        const upgraded = await storage.reviewJobs.findById(job.id);
        expect(upgraded).toMatchObject({
          pullRequestKey: `${clientId}|gitHostA|https://github.com|42|7`,
          revisionKey: `${clientId}|gitHostA|https://github.com|42|7|*`,
        });
        expect(await storage.reviewJobs.findActiveByRevisionKey(upgraded?.revisionKey ?? '')).toMatchObject({
          id: job.id,
        });
      } finally {
        await storage.close();
        await db.drop();
      }
    });

    it('0010 re-seals every stored credential bound to its row and field, and needs the key to do so', async () => {
      const db = await createTestDatabase(dialect);
      const storage = await openKnexStorage({ url: db.url, migrate: false });
      const box = createAesGcmSecretBox(KEY);
      try {
        await storage.knex.migrate.latest({ migrationSource: migrationsBefore('0012_bind_sealed_secrets') });
        const clientId = randomUUID();
        await storage.clients.insert({
          id: clientId,
          tenantId: SYSTEM_TENANT_ID,
          displayName: 'Before binding',
          isActive: true,
          createdAt: NOW,
          updatedAt: NOW,
        });
        const connectionId = randomUUID();
        await storage.providerConnections.insert({
          id: connectionId,
          clientId,
          providerFamily: 'gitHostB',
          authenticationKind: 'personalAccessToken',
          hostBaseUrl: 'https://gitlab.example.com',
          hostKey: 'https://gitlab.example.com',
          displayName: 'GitLab',
          isActive: true,
          oAuthTenantId: null,
          oAuthClientId: null,
          hostedAppId: null,
          hostedAppInstallationId: null,
          sealedSecret: legacySeal('glpat-before-0010'),
          verificationStatus: 'neverVerified',
          lastVerifiedAt: null,
          lastVerificationError: null,
          lastVerificationFailureCategory: null,
          createdAt: NOW,
          updatedAt: NOW,
        });
        await storage.settings.put('system.secretsKeyCheck', legacySeal('margin-secrets-key-check'), NOW);

        await expect(storage.migrate()).rejects.toThrow(/needs the secrets key/);
        const keyed = await openKnexStorage({ url: db.url, migrate: false, secrets: box });
        try {
          expect(await keyed.migrate()).toContain('0012_bind_sealed_secrets');
          const sealed = (await keyed.providerConnections.findById(connectionId))?.sealedSecret ?? '';
          expect(sealed).toMatch(/^v2:/);
          expect(box.open(sealed, sealedSecretContext('provider-connection.secret', connectionId))).toBe(
            'glpat-before-0010',
          );
          expect(() => box.open(sealed, sealedSecretContext('provider-connection.secret', randomUUID()))).toThrow();
          const probe = String(await keyed.settings.get('system.secretsKeyCheck'));
          expect(box.open(probe, sealedSecretContext('setting.value', 'system.secretsKeyCheck'))).toBe(
            'margin-secrets-key-check',
          );
        } finally {
          await keyed.close();
        }
      } finally {
        await storage.close();
        await db.drop();
      }
    });
    it('0012 appends the provider revision id to existing revision keys, and only where there is one', async () => {
      const db = await createTestDatabase(dialect);
      const storage = await openKnexStorage({ url: db.url, migrate: false });
      try {
        await storage.knex.migrate.latest({ migrationSource: migrationsBefore('0014_whole_revision_keys') });
        const clientId = randomUUID();
        await storage.clients.insert({
          id: clientId,
          tenantId: SYSTEM_TENANT_ID,
          displayName: 'Before whole keys',
          isActive: true,
          createdAt: NOW,
          updatedAt: NOW,
        });
        const revision = { headSha: 'a'.repeat(40), baseSha: 'b'.repeat(40) };
        const withId = reviewJobRecord(clientId, {
          reviewRevision: { ...revision, providerRevisionId: 'iteration-3' },
          revisionKey: `${clientId}|k1|${'a'.repeat(40)}:${'b'.repeat(40)}`,
        });
        const withoutId = reviewJobRecord(clientId, {
          reviewRevision: revision,
          revisionKey: `${clientId}|k2|${'a'.repeat(40)}:${'b'.repeat(40)}`,
        });
        await storage.reviewJobs.insert(withId);
        await storage.reviewJobs.insert(withoutId);
        expect(await storage.migrate()).toContain('0014_whole_revision_keys');
        expect((await storage.reviewJobs.findById(withId.id))?.revisionKey).toBe(`${withId.revisionKey}:iteration-3`);
        expect((await storage.reviewJobs.findById(withoutId.id))?.revisionKey).toBe(withoutId.revisionKey);
      } finally {
        await storage.close();
        await db.drop();
      }
    });

    it('0050 gives existing tenants unique slugs made from their names, active and with passwords allowed', async () => {
      const db = await createTestDatabase(dialect);
      const storage = await openKnexStorage({ url: db.url, migrate: false });
      try {
        await storage.knex.migrate.latest({ migrationSource: migrationsBefore('0050_tenant_sign_in_and_user_email') });
        const [first, second, odd] = [randomUUID(), randomUUID(), randomUUID()];
        await storage.knex('tenants').insert([
          { id: first, display_name: 'Acme Corp', created_at: '2026-01-02T00:00:00.000Z', updated_at: NOW },
          { id: second, display_name: 'ACME corp!', created_at: '2026-01-03T00:00:00.000Z', updated_at: NOW },
          { id: odd, display_name: '√', created_at: '2026-01-04T00:00:00.000Z', updated_at: NOW },
        ]);
        expect(await storage.migrate()).toContain('0050_tenant_sign_in_and_user_email');
        expect(await storage.tenants.findById(SYSTEM_TENANT_ID)).toMatchObject({ slug: 'system', isActive: true });
        expect(await storage.tenants.findById(first)).toMatchObject({
          slug: 'acme-corp',
          isActive: true,
          loginPolicy: 'localAndSso',
        });
        expect((await storage.tenants.findById(second))?.slug).toBe('acme-corp-2');
        expect((await storage.tenants.findById(odd))?.slug).toBe('tenant');
        expect(await storage.tenants.findBySlug('acme-corp-2')).toMatchObject({ id: second });
      } finally {
        await storage.close();
        await db.drop();
      }
    });

    it('0100 lets a tenant own AI connections and keeps every client profile with its models, bindings and logical models', async () => {
      const db = await createTestDatabase(dialect);
      const storage = await openKnexStorage({ url: db.url, migrate: false });
      try {
        await storage.knex.migrate.latest({ migrationSource: migrationsBefore('0100_tenant_ai_connections') });
        const clientId = randomUUID();
        await storage.clients.insert({
          id: clientId,
          tenantId: SYSTEM_TENANT_ID,
          displayName: 'Before tenant connections',
          isActive: true,
          createdAt: NOW,
          updatedAt: NOW,
        });
        const [connectionId, modelId] = [randomUUID(), randomUUID()];
        await storage.knex('ai_connections').insert({
          id: connectionId,
          client_id: clientId,
          display_name: 'OpenAI',
          display_name_key: 'openai',
          provider_kind: 'kindDirect',
          base_url: '',
          auth_mode: 'apiKey',
          api_key_sealed: null,
          discovery_mode: 'manualOnly',
          default_headers: '{}',
          default_query_params: '{}',
          is_active: true,
          revision: 1,
          verification_status: 'verified',
          verification_summary: 'ok',
          verification_warnings: '[]',
          created_at: NOW,
          updated_at: NOW,
        });
        await storage.knex('ai_configured_models').insert({
          id: modelId,
          connection_id: connectionId,
          position: 0,
          remote_model_id: 'gpt-4.1',
          remote_model_key: 'gpt-4.1',
          display_name: 'GPT-4.1',
          operation_kinds: '["chat"]',
          supported_protocol_modes: '["auto"]',
          supports_structured_output: true,
          supports_tool_use: false,
          source: 'manual',
        });
        await storage.knex('ai_purpose_bindings').insert({
          connection_id: connectionId,
          purpose: 'reviewDefault',
          configured_model_id: modelId,
          protocol_mode: 'auto',
          is_enabled: true,
          position: 0,
        });
        await storage.knex('ai_logical_models').insert({
          id: randomUUID(),
          owner_kind: 'client',
          owner_id: clientId,
          name: 'main',
          name_key: 'main',
          capability: 'chat',
          connection_id: connectionId,
          configured_model_id: modelId,
          reasoning_effort: 'none',
          protocol_mode: 'auto',
          created_at: NOW,
          updated_at: NOW,
        });

        expect(await storage.migrate()).toContain('0100_tenant_ai_connections');
        const kept = await storage.aiConnections.findById(connectionId);
        expect(kept).toMatchObject({ clientId, ownerTenantId: null, displayName: 'OpenAI', isActive: true });
        expect(kept?.configuredModels.map((m) => m.id)).toEqual([modelId]);
        expect(kept?.purposeBindings).toHaveLength(1);
        expect(await storage.aiLogicalModels.listByConnection(connectionId)).toHaveLength(1);
        const owned = {
          ...(kept as AiConnectionRecord),
          id: randomUUID(),
          clientId: null,
          ownerTenantId: SYSTEM_TENANT_ID,
        };
        owned.configuredModels = owned.configuredModels.map((m) => ({ ...m, id: randomUUID() }));
        owned.purposeBindings = [];
        await storage.aiConnections.insert(owned);
        expect((await storage.aiConnections.listByTenant(SYSTEM_TENANT_ID, { limit: 10 })).items).toEqual([owned]);
        if (dialect === 'sqlite') {
          // The rebuild turned foreign keys off for itself only.
          expect(await storage.knex.raw('PRAGMA foreign_keys')).toEqual([{ foreign_keys: 1 }]);
        }
      } finally {
        await storage.close();
        await db.drop();
      }
    });
  });
}
