export { type CheckStatus, checkDatabase, type HealthCheck, overallStatus } from './health.js';
