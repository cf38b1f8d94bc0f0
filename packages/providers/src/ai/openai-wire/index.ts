export {
  type AzureManagedIdentityOptions,
  type AzureTokenProvider,
  IMDS_TOKEN_ENDPOINT,
} from './azure-managed-identity.js';
export { createAzureOpenAiKind } from './azure-openai-kind.js';
export { createLiteLlmProxyKind } from './litellm-proxy-kind.js';
export { createOpenAiCompatibleKind } from './openai-compatible-kind.js';
export { createOpenAiKind } from './openai-direct-kind.js';
