import type { SsoClientConfig } from '@margin/core';
import { BoundedCache } from '@margin/providers/utils';

/** Long enough to spare the issuer a discovery per sign-in, short enough to follow its changes. */
export const DISCOVERY_TTL_MS = 10 * 60 * 1000;
/** Identity providers an installation signs in with at once; the least recently used go first. */
export const DISCOVERY_MAX_ENTRIES = 200;

interface Entry<T> {
  /** The provider's settings the configuration was discovered with. */
  version: string;
  expiresAt: number;
  configuration: Promise<T>;
}

/**
 * Each identity provider's discovered configuration, kept for a bounded time and bounded in number.
 * An edit of the provider (a new `updatedAt`) or its deletion drops it; so does `forget`, which the
 * sign-in calls on a failure that suggests the issuer rotated its keys. Concurrent sign-ins share one
 * discovery; a failed discovery is not kept.
 */
export class DiscoveryCache<T> {
  readonly #entries: BoundedCache<string, Entry<T>>;

  constructor(
    private readonly discover: (provider: SsoClientConfig) => Promise<T>,
    private readonly options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {
    this.#entries = new BoundedCache(options.maxEntries ?? DISCOVERY_MAX_ENTRIES);
  }

  get(provider: SsoClientConfig): Promise<T> {
    const now = (this.options.now ?? Date.now)();
    const version = JSON.stringify([provider.issuerUrl, provider.clientId, provider.updatedAt]);
    const cached = this.#entries.get(provider.providerId);
    if (cached && cached.version === version && cached.expiresAt > now) return cached.configuration;
    const entry: Entry<T> = {
      version,
      expiresAt: now + (this.options.ttlMs ?? DISCOVERY_TTL_MS),
      configuration: this.discover(provider),
    };
    // One entry per provider: a changed provider replaces what was discovered with its old settings.
    this.#entries.set(provider.providerId, entry);
    entry.configuration.catch(() => {
      if (this.#entries.get(provider.providerId) === entry) this.#entries.delete(provider.providerId);
    });
    return entry.configuration;
  }

  /** The next sign-in through this provider discovers again. */
  forget(providerId: string): void {
    this.#entries.delete(providerId);
  }
}
