import type { Clock, SecretBox, SettingsRepository } from '../kernel/index.js';

/** What the health and start-up checks need. */
export interface SystemDeps {
  storage: { settings: SettingsRepository; ping(): Promise<void> };
  secrets: SecretBox;
  clock: Clock;
}
