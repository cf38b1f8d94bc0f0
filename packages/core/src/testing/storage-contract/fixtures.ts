import type { PersonalAccessTokenRecord } from '../../identity/pat-record.js';
import type { RefreshTokenRecord } from '../../identity/session-record.js';
import type { UserRecord } from '../../identity/user-record.js';
import type { StorageV1 } from '../../storage/storage-v1.js';
import { type ClientRecord, SYSTEM_TENANT_ID } from '../../tenancy/tenancy-records.js';

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
    globalRole: 'user',
    isActive: true,
    failedLoginCount: 0,
    lockoutCount: 0,
    lockedUntil: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}
