export { createMemoryStorage } from './memory/memory-storage.js';

export type { Repositories, StorageV1 } from './storage-v1.js';
