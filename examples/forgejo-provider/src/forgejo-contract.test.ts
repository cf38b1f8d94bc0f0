import { describeScmProviderContract, SCM_CONTRACT_SCENARIO } from '@margin/core/testing';
import { createForgejoFamily, FORGEJO_FAMILY } from './forgejo-family.js';
import { FJ_OWNER, FJ_REPOSITORY_ID, startForgejoFake } from './testing/forgejo-fake.js';

// Obviously fake, and distinctive so a leak into an error message is easy to spot.
const TOKEN = 'fj-contract-token-0123456789abcdef01234567';
const BAD_TOKEN = 'fj-revoked-token-fedcba9876543210fedcba98';

// Gitea 1.26 flavour: the one server of the family whose API can resolve a conversation, which the
// contract asks for. Forgejo's refusal to do so is covered in forgejo-scm-provider.test.ts.
describeScmProviderContract('Forgejo/Gitea (personal access token)', async () => {
  const fake = await startForgejoFake({ token: TOKEN, flavour: 'gitea' });
  const family = createForgejoFamily({ backoffBaseMs: 1 });
  const connection = {
    family: FORGEJO_FAMILY,
    authenticationKind: 'personalAccessToken' as const,
    hostBaseUrl: fake.hostUrl,
    secret: TOKEN,
  };
  const scope = { scopePath: `${fake.hostUrl}/${FJ_OWNER}`, projectKey: FJ_OWNER };
  return {
    family,
    provider: family.connect(connection),
    providerWithBadCredentials: family.connect({ ...connection, secret: BAD_TOKEN }),
    badSecret: BAD_TOKEN,
    scope,
    ref: { ...scope, repositoryId: FJ_REPOSITORY_ID, pullRequestId: SCM_CONTRACT_SCENARIO.pullRequest.number },
    throttleNext: () => fake.throttleNext(),
    requestCount: () => fake.requests.length,
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
