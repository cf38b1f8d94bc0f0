import type { ProviderRegistry } from '@margin/core';
import { type AiProviderKindsOptions, createAiProviderKinds } from './ai/index.js';
import { azureDevOpsFamily } from './scm/azure-devops/index.js';
import { bitbucketFamily } from './scm/bitbucket/index.js';
import { gitHubFamily } from './scm/github/index.js';
import { gitLabFamily } from './scm/gitlab/index.js';

export interface ProviderRegistryOptions {
  /** Used by every source-control adapter; tests pass one that reaches their fakes. */
  fetch?: typeof fetch | undefined;
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
  const { fetch } = options;
  return {
    scm: [
      azureDevOpsFamily({ fetch, entraAuthorityUrl: options.entraAuthorityUrl }),
      gitHubFamily({ fetch }),
      gitLabFamily({ fetch }),
      bitbucketFamily({ fetch, apiBaseUrl: options.bitbucketApiBaseUrl }),
    ],
    ai: createAiProviderKinds({ ...options.ai, allowPrivateEgress: options.allowPrivateEgress }),
  };
}
