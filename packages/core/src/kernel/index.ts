/**
 * The shared kernel: what every capability may use and what uses no capability — the one error type,
 * the platform ports (clock, ids, secrets, settings), validation building blocks, who is calling
 * (`Actor`, roles) and paging.
 */
export { type Actor, requireInteractiveSession, requirePlatformAdmin } from './actor.js';
export { type Clock, pause, systemClock } from './clock.js';
export {
  ERROR_STATUS,
  type ErrorCode,
  fromZodError,
  MAX_VALIDATION_DETAILS,
  MarginError,
  type ProviderFailure,
  toMarginError,
  type ValidationIssue,
} from './errors.js';
export { createEventBus, type EventBus, type MarginEventName, type MarginEvents } from './events.js';
export { type Ids, randomIds } from './ids.js';
export {
  type CursorPosition,
  decodeCursor,
  encodeCursor,
  type Page,
  PageQuery,
  type PageRequest,
  toPage,
} from './paging.js';
export {
  CLIENT_ROLES,
  type ClientRole,
  clientRoleAtLeast,
  GLOBAL_ROLES,
  type GlobalRole,
  higherClientRole,
  TENANT_ROLES,
  type TenantRole,
} from './roles.js';
export { createAesGcmSecretBox, type SealedField, type SecretBox, sealedSecretContext } from './secret-box.js';
export type { SettingsRepository } from './settings-repository.js';
export type { StorageSlice, TransactionOptions } from './storage-slice.js';
export { SYSTEM_TENANT_ID } from './system-tenant.js';
export { TtlCache } from './ttl-cache.js';
export {
  MAX_STORED_INTEGER,
  oneOf,
  REGISTERED_ID_PATTERN,
  registeredId,
  required,
  storedIntegerMessage,
  text,
  timestamp,
} from './validation.js';
export { VERIFICATION_STATUSES, type VerificationStatus } from './verification.js';
