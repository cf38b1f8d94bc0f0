import { describeStorageContract } from '../../testing/index.js';
import { createMemoryStorage } from './memory-storage.js';

describeStorageContract('memory', async () => {
  const storage = createMemoryStorage();
  return { storage, dispose: () => storage.close() };
});
