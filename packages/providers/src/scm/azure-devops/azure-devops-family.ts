import type { ScmProviderFamilyV1 } from '@margin/core/spec';
import type { AzureDevOpsOptions } from './azure-devops-options.js';
import { azureDevOpsPullRequestUrls } from './azure-devops-pull-request-url.js';
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
    displayName: 'Azure DevOps',
    authenticationKinds: ['oauthClientCredentials', 'personalAccessToken'],
    receiverSegment: 'devopsA',
    codeReviewPlatform: 'pullRequest',
    // Every path names the organization and project, which bound what a token reaches.
    capabilities: { repositoriesById: false, wikiSources: true, commentIdsPerThread: true },
    connect: (connection) => createAzureDevOpsProvider(connection, options),
    webhook: azureDevOpsWebhook,
    pullRequestUrls: azureDevOpsPullRequestUrls,
  };
}
