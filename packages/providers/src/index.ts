export * from './http/index.js';
export { createProviderRegistry, type ProviderRegistryOptions } from './registry.js';
export * from './scm/bitbucket/index.js';
export * from './scm/gitlab/index.js';
