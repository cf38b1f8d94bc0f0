/** `@margin/core/memory`: storage held in memory, for tests, demos and embedding without a database. */
export { createMemoryStorage } from './storage/index.js';
