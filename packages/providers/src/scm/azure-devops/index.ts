export { azureDevOpsFamily } from './azure-devops-family.js';
export type { AzureDevOpsOptions } from './azure-devops-options.js';
export { createAzureDevOpsProvider } from './azure-devops-scm-provider.js';
export { azureDevOpsWebhook } from './azure-devops-webhook.js';
export { AZURE_DEVOPS_SCOPE } from './entra-token.js';
