export { type CheckStatus, checkDatabase, type HealthCheck, overallStatus } from './health.js';
export { verifySecretsKey } from './secrets-key-check.js';
