import { describeScmProviderContract, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { GH_OWNER, GH_REPOSITORY_ID, startGitHubFake } from './github-fake.js';
import { gitHubFamily } from './github-family.js';

const PAT = 'ghp_contractTestToken0123456789abcdefABCD';
const BAD_PAT = 'ghp_revokedToken9876543210fedcbaFEDCBA98';

describeScmProviderContract('GitHub (PAT, GitHub Enterprise Server routes)', async () => {
  const fake = await startGitHubFake({ pat: PAT });
  const family = gitHubFamily({ backoffBaseMs: 1 });
  const connection = {
    family: 'gitHostA' as const,
    authenticationKind: 'personalAccessToken' as const,
    hostBaseUrl: fake.hostUrl,
    secret: PAT,
  };
  const scope = { scopePath: `${fake.hostUrl}/${GH_OWNER}`, projectKey: GH_OWNER };
  return {
    family,
    provider: family.connect(connection),
    providerWithBadCredentials: family.connect({ ...connection, secret: BAD_PAT }),
    badSecret: BAD_PAT,
    scope,
    ref: { ...scope, repositoryId: GH_REPOSITORY_ID, pullRequestId: SCM_CONTRACT_SCENARIO.pullRequest.number },
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.server.requests.length,
    loadPullRequest: (scenario) => fake.loadPullRequest(scenario),
    refuseThreadsOn: (path) => fake.refuseThreadsOn(path),
    commitStatuses: {
      recorded: () => fake.statuses,
      target: SCM_CONTRACT_SCENARIO.pullRequest.headSha,
      wireStates: { pending: 'pending', success: 'success', failure: 'failure', error: 'error' },
      refuse: (refused) => fake.refuseStatuses(refused),
    },
    close: () => fake.close(),
  };
});
