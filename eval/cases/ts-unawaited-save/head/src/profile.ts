import type { Store } from './store.js';

export async function updateProfile(
  store: Store,
  id: string,
  name: string,
  log: (message: string) => void,
): Promise<boolean> {
  try {
    store.save(id, { name });
    return true;
  } catch (error) {
    log(`saving profile ${id} failed: ${String(error)}`);
    return false;
  }
}
