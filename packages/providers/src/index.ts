export * from './ai/index.js';
export { createProviderRegistry, type ProviderPlugin, type ProviderRegistryOptions } from './registry.js';
export * from './scm/azure-devops/index.js';
export * from './scm/bitbucket/index.js';
export * from './scm/github/index.js';
export * from './scm/gitlab/index.js';
export * from './scm/shared/index.js';
// The generic pieces, also `@margin/providers/utils`; kept here for consumers of the root entry.
export * from './utils/index.js';
