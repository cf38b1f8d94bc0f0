import type { PersonalAccessTokenRecord, RefreshTokenRecord, UserRecord } from '../../identity/index.js';
import { SYSTEM_TENANT_ID } from '../../kernel/index.js';
import type { KnowledgeSourceRecord } from '../../knowledge/index.js';
import type { ReviewJobRecord } from '../../reviewing/index.js';
import type { StorageV1 } from '../../storage/index.js';
import type { ClientRecord, TenantRecord } from '../../tenancy/index.js';

/** Each sub-suite reads the fresh storage of the running test through this getter. */
export type StorageGetter = () => StorageV1;

export const NOW = '2026-01-01T00:00:00.000Z';
export const LATER = '2026-01-01T01:00:00.000Z';
let sequence = 0;

export function uuid(): string {
  sequence++;
  return `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`;
}

export function refreshToken(userId: string, familyId: string): RefreshTokenRecord {
  const id = uuid();
  return {
    id,
    userId,
    familyId,
    tokenHash: id.replace(/-/g, '').padEnd(64, 'a'),
    createdAt: NOW,
    expiresAt: '2026-01-04T00:00:00.000Z',
    lastUsedAt: NOW,
    replacedById: null,
    revokedAt: null,
  };
}

export function pat(userId: string, createdAt: string): PersonalAccessTokenRecord {
  const id = uuid();
  return {
    id,
    userId,
    label: `token ${id}`,
    tokenHash: id.replace(/-/g, '').padEnd(64, 'b'),
    createdAt,
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
  };
}

export function tenant(overrides: Partial<TenantRecord> = {}): TenantRecord {
  const id = uuid();
  return {
    id,
    displayName: `Tenant ${id}`,
    slug: `t-${id.slice(-12)}`,
    isActive: true,
    loginPolicy: 'localAndSso',
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function client(overrides: Partial<ClientRecord> = {}): ClientRecord {
  const id = uuid();
  return {
    id,
    tenantId: SYSTEM_TENANT_ID,
    displayName: `Client ${id}`,
    isActive: true,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

export function user(overrides: Partial<UserRecord> = {}): UserRecord {
  sequence++;
  return {
    id: `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, '0')}`,
    username: `user${sequence}`,
    displayName: `User ${sequence}`,
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    email: null,
    globalRole: 'user',
    isActive: true,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

/** A queued API job of a GitHub pull request; each call has its own id and revision key. */
export function reviewJobRecord(clientId: string, overrides: Partial<ReviewJobRecord> = {}): ReviewJobRecord {
  const id = uuid();
  return {
    id,
    clientId,
    status: 'queued',
    trigger: 'api',
    provider: 'gitHostA',
    hostBaseUrl: 'https://github.com',
    repository: { externalRepositoryId: '42', ownerOrNamespace: 'acme', projectPath: 'acme/app' },
    codeReview: { platform: 'pullRequest', externalReviewId: '7', number: 7 },
    reviewRevision: { headSha: 'a'.repeat(40), baseSha: 'b'.repeat(40) },
    pullRequestKey: 'gitHostA|https://github.com|42|7',
    revisionKey: `gitHostA|https://github.com|42|7|${id}`,
    options: { reviewTemperature: 0.2 },
    attempt: 1,
    submittedByUserId: null,
    submittedAt: NOW,
    startedAt: null,
    completedAt: null,
    updatedAt: NOW,
    leaseOwner: null,
    leaseExpiresAt: null,
    reclaimCount: 0,
    progress: { filesTotal: 0, filesDone: 0 },
    result: null,
    usage: null,
    error: null,
    ...overrides,
  };
}

/** A repository knowledge source of the client, tracking `main`. */
export function knowledgeSource(
  clientId: string,
  overrides: Partial<KnowledgeSourceRecord> = {},
): KnowledgeSourceRecord {
  return {
    id: uuid(),
    clientId,
    displayName: 'Uploader',
    sourceKind: 'repository',
    organizationScopeId: 'scope-1',
    providerProjectKey: 'acme',
    canonicalSourceRef: { provider: 'gitHostA', value: `repo-${uuid().slice(-6)}` },
    sourceDisplayName: 'acme/uploader',
    defaultBranch: 'main',
    rootPath: '/',
    symbolMode: 'auto',
    trackedBranches: [{ branchName: 'main', refreshTriggerMode: 'manual', miniIndexEnabled: false }],
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}
