/** Installation-wide values that must survive restarts (edition, capability overrides, ...). */
export interface SettingsRepository {
  get(key: string): Promise<unknown | undefined>;
  put(key: string, value: unknown, updatedAt: string): Promise<void>;
}
