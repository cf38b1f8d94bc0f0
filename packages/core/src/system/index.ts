export { type CheckStatus, checkDatabase, type HealthCheck, overallStatus } from './health.js';
export { verifySecretsKey } from './secrets-key-check.js';
export type { SystemDeps } from './system-deps.js';
export { createSystemUseCases, type SystemUseCases } from './use-cases.js';
