export type { Actor } from './actor.js';
export { type BootstrapAdminInput, type BootstrapAdminResult, ensureBootstrapAdmin } from './bootstrap-admin.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { GLOBAL_ROLES, type GlobalRole, type UserPatch, type UserRecord, type UsersRepository } from './user-record.js';
