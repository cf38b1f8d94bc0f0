export * from './ai/index.js';
export {
  assertEgressUrlAllowed,
  createEgressGuardedFetch,
  type EgressGuardOptions,
} from './http/egress-guard.js';
export * from './http/index.js';
export { createProviderRegistry, type ProviderPlugin, type ProviderRegistryOptions } from './registry.js';
export * from './scm/azure-devops/index.js';
export * from './scm/bitbucket/index.js';
export * from './scm/github/index.js';
export * from './scm/gitlab/index.js';
export * from './scm/shared/index.js';
