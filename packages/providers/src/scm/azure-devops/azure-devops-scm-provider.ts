import type { ScmConnectionConfig, ScmProviderV1 } from '@margin/core/spec';
import { changeTrackingIds } from './azure-devops-change-tracking.js';
import { azureDevOpsCommitStatus } from './azure-devops-commit-status.js';
import { connectAzureDevOps, verifyAzureDevOpsAccount } from './azure-devops-connection.js';
import { azureDevOpsDiffs } from './azure-devops-diffs.js';
import { azureDevOpsDiscovery } from './azure-devops-discovery.js';
import type { AzureDevOpsOptions } from './azure-devops-options.js';
import { azureDevOpsPullRequests } from './azure-devops-pull-requests.js';
import { azureDevOpsThreads } from './azure-devops-threads.js';
import { azureDevOpsTree } from './azure-devops-tree.js';
import { azureDevOpsWikis } from './azure-devops-wikis.js';

/**
 * `ScmProviderV1` for Azure DevOps Services and Server over explicit REST routes, assembled from one
 * part per concern over a shared connection. Coordinates: scope path = organization or collection
 * URL, project key = project name, repository id = repository GUID, revision id = iteration id.
 */
export function createAzureDevOpsProvider(
  connection: ScmConnectionConfig,
  options: AzureDevOpsOptions = {},
): ScmProviderV1 {
  const ado = connectAzureDevOps(connection, options);
  // The diffs part remembers each listed file's change tracking id; inline threads pin to it.
  const trackingIds = changeTrackingIds(ado);
  return {
    specificationVersion: 'v1',
    family: 'suiteDevOps',
    verify: (callOptions) => verifyAzureDevOpsAccount(ado, callOptions?.signal),
    ...azureDevOpsPullRequests(ado),
    ...azureDevOpsDiffs(ado, trackingIds),
    ...azureDevOpsThreads(ado, trackingIds),
    ...azureDevOpsDiscovery(ado),
    ...azureDevOpsCommitStatus(ado),
    ...azureDevOpsTree(ado),
    ...azureDevOpsWikis(ado),
  };
}
