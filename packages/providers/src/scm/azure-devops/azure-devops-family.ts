import type { ScmProviderFamilyV1 } from '@margin/core';
import type { AzureDevOpsOptions } from './azure-devops-options.js';
import { createAzureDevOpsProvider } from './azure-devops-scm-provider.js';
import { azureDevOpsWebhook } from './azure-devops-webhook.js';

/**
 * The `suiteDevOps` family: Azure DevOps Services (PAT or Entra ID client credentials) and Azure
 * DevOps Server (PAT). One family per host process; `connect` per stored connection.
 */
export function azureDevOpsFamily(options: AzureDevOpsOptions = {}): ScmProviderFamilyV1 {
  return {
    specificationVersion: 'v1',
    family: 'suiteDevOps',
    authenticationKinds: ['oauthClientCredentials', 'personalAccessToken'],
    connect: (connection) => createAzureDevOpsProvider(connection, options),
    webhook: azureDevOpsWebhook,
  };
}
