import type { Store } from './store.js';

export async function updateProfile(store: Store, id: string, name: string): Promise<void> {
  await store.save(id, { name });
}
