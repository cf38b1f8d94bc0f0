import type { ProviderRegistry } from '@margin/core';
import { bitbucketFamily } from './scm/bitbucket/index.js';
import { gitLabFamily } from './scm/gitlab/index.js';

export interface ProviderRegistryOptions {
  /** Used by every adapter; tests pass one that reaches their fakes. */
  fetch?: typeof fetch | undefined;
  /** Bitbucket Cloud's API root, overridable for tests and proxies. */
  bitbucketApiBaseUrl?: string | undefined;
}

/** Every built-in adapter, ready to hand to `createMarginCore`. */
export function createProviderRegistry(options: ProviderRegistryOptions = {}): ProviderRegistry {
  return {
    scm: [
      gitLabFamily({ fetch: options.fetch }),
      bitbucketFamily({ fetch: options.fetch, apiBaseUrl: options.bitbucketApiBaseUrl }),
    ],
    ai: [],
  };
}
