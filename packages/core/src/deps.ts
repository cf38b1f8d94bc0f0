import type { EventBus } from './events.js';
import type { Clock } from './platform/clock.js';
import type { Ids } from './platform/ids.js';
import type { SecretBox } from './platform/secret-box.js';
import type { ProviderRegistry } from './providers.js';
import type { StorageV1 } from './storage/storage-v1.js';

/** What every use case may use. Built once by `createMarginCore`. */
export interface CoreDeps {
  storage: StorageV1;
  secrets: SecretBox;
  clock: Clock;
  ids: Ids;
  events: EventBus;
  providers: ProviderRegistry;
}
