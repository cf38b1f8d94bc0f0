export { createMemoryStorage } from './memory/memory-storage.js';
export { type CursorPosition, decodeCursor, encodeCursor, type Page, type PageRequest, toPage } from './paging.js';
export type { SettingsRepository } from './settings-repository.js';
export type { Repositories, StorageV1 } from './storage-v1.js';
