import { describeScmProviderContract, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { ADO_PROJECT, ADO_REPOSITORY_ID, startAzureDevOpsFake } from './azure-devops-fake.js';
import { azureDevOpsFamily } from './azure-devops-family.js';

const PAT = 'ado-pat-7f3c9e1b2a4d6f8e0c1b3a5d7f9e2c4b';
const BAD_PAT = 'ado-pat-revoked-0000111122223333444455556666';

describeScmProviderContract('Azure DevOps (PAT)', async () => {
  const fake = await startAzureDevOpsFake({ pat: PAT });
  const family = azureDevOpsFamily({ backoffBaseMs: 1 });
  const connection = {
    family: 'suiteDevOps' as const,
    authenticationKind: 'personalAccessToken' as const,
    hostBaseUrl: fake.orgUrl,
    secret: PAT,
  };
  const scope = { scopePath: fake.orgUrl, projectKey: ADO_PROJECT };
  return {
    family,
    provider: family.connect(connection),
    providerWithBadCredentials: family.connect({ ...connection, secret: BAD_PAT }),
    badSecret: BAD_PAT,
    scope,
    ref: { ...scope, repositoryId: ADO_REPOSITORY_ID, pullRequestId: SCM_CONTRACT_SCENARIO.pullRequest.number },
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    loadPullRequest: (scenario) => fake.loadPullRequest(scenario),
    refuseThreadsOn: (path) => fake.refuseThreadsOn(path),
    commitStatuses: {
      recorded: () => fake.statuses,
      target: `pr:${SCM_CONTRACT_SCENARIO.pullRequest.number}`,
      wireStates: { pending: 'pending', success: 'succeeded', failure: 'failed', error: 'error' },
      refuse: (refused) => fake.refuseStatuses(refused),
    },
    close: () => fake.close(),
  };
});
