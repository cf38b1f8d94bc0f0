import type { SettingsRepository } from '../../kernel/index.js';
import { copy, type MemoryState } from './memory-state.js';

export function memorySettings(state: () => MemoryState): SettingsRepository {
  return {
    async get(key) {
      const value = state().settings.get(key);
      return value === undefined ? undefined : copy(value);
    },
    async put(key, value) {
      state().settings.set(key, copy(value));
    },
  };
}
