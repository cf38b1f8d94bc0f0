import type { lookup as dnsLookup } from 'node:dns';
import type { ProviderRegistry } from '@margin/core';
import { type AiProviderKindsOptions, createAiProviderKinds } from './ai/index.js';
import { createEgressGuardedFetch } from './http/egress-guard.js';
import { azureDevOpsFamily } from './scm/azure-devops/index.js';
import { bitbucketFamily } from './scm/bitbucket/index.js';
import { gitHubFamily } from './scm/github/index.js';
import { gitLabFamily } from './scm/gitlab/index.js';

export interface ProviderRegistryOptions {
  /**
   * The network under every source-control adapter's egress guard; tests pass one that reaches
   * their fakes. Default: undici, with addresses checked at connect time.
   */
  fetch?: typeof fetch | undefined;
  /** Name resolution for the egress guards (tests point names at any address). */
  lookup?: typeof dnsLookup | undefined;
  /** Allow AI hosts on loopback/private addresses and plain http (`MARGIN_ALLOW_PRIVATE_EGRESS`). */
  allowPrivateEgress?: boolean | undefined;
  /** Microsoft Entra's authority for Azure DevOps client credentials (tests, sovereign clouds). */
  entraAuthorityUrl?: string | undefined;
  /** Bitbucket Cloud's API root, overridable for tests and proxies. */
  bitbucketApiBaseUrl?: string | undefined;
  /** Tuning of the AI kinds (timeouts, retries, the managed-identity endpoint). */
  ai?: Omit<AiProviderKindsOptions, 'allowPrivateEgress'> | undefined;
}

/** Every built-in adapter, ready to hand to `createMarginCore`. */
export function createProviderRegistry(options: ProviderRegistryOptions = {}): ProviderRegistry {
  // Source control gets the AI adapters' guarded transport: addresses checked on the connection
  // actually made (no DNS rebinding), metadata, link-local and reserved addresses refused, no
  // redirect to another host. Private addresses and plain http stay allowed: self-hosted servers
  // live there (the save-time rule for hostBaseUrl says the same).
  const fetch = createEgressGuardedFetch({
    allowPrivateEgress: true,
    redirects: 'sameOrigin',
    label: 'source-control',
    fetch: options.fetch,
    lookup: options.lookup,
  });
  return {
    scm: [
      azureDevOpsFamily({ fetch, entraAuthorityUrl: options.entraAuthorityUrl }),
      gitHubFamily({ fetch }),
      gitLabFamily({ fetch }),
      bitbucketFamily({ fetch, apiBaseUrl: options.bitbucketApiBaseUrl }),
    ],
    ai: createAiProviderKinds({
      ...options.ai,
      lookup: options.ai?.lookup ?? options.lookup,
      allowPrivateEgress: options.allowPrivateEgress,
    }),
    // Core's save-time checks follow what the adapters enforce.
    allowPrivateEgress: options.allowPrivateEgress === true,
  };
}
