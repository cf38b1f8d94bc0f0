export { type DatabaseTarget, parseDatabaseUrl } from './database-url.js';
export { type KnexStorage, type KnexStorageOptions, openKnexStorage } from './knex-storage.js';
export { MIGRATIONS } from './migrations/index.js';
