import type { CoreDeps } from './deps.js';
import { createEventBus, type EventBus } from './events.js';
import { type BootstrapAdminInput, ensureBootstrapAdmin } from './identity/index.js';
import { type Clock, systemClock } from './platform/clock.js';
import { type Ids, randomIds } from './platform/ids.js';
import type { SecretBox } from './platform/secret-box.js';
import type { ProviderRegistry } from './providers.js';
import type { StorageV1 } from './storage/storage-v1.js';
import { checkDatabase, verifySecretsKey } from './system/index.js';

export interface MarginCoreOptions {
  storage: StorageV1;
  secrets: SecretBox;
  providers?: ProviderRegistry;
  clock?: Clock;
  ids?: Ids;
  events?: EventBus;
}

/**
 * Wires the ports into use cases grouped by capability. Every use case validates its input, checks
 * authorization and licensing, and returns plain data or throws a MarginError.
 */
export function createMarginCore(options: MarginCoreOptions) {
  const deps: CoreDeps = {
    storage: options.storage,
    secrets: options.secrets,
    providers: options.providers ?? { scm: [], ai: [] },
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    events: options.events ?? createEventBus(),
  };
  return {
    events: deps.events,
    system: {
      checkDatabase: () => checkDatabase(deps),
      verifySecretsKey: () => verifySecretsKey(deps),
    },
    identity: {
      ensureBootstrapAdmin: (input: BootstrapAdminInput) => ensureBootstrapAdmin(deps, input),
    },
  };
}

export type MarginCore = ReturnType<typeof createMarginCore>;
