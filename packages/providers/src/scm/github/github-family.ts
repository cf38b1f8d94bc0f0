import type { ScmProviderFamilyV1 } from '@margin/core/spec';
import type { GitHubOptions } from './github-options.js';
import { gitHubPullRequestUrls } from './github-pull-request-url.js';
import { createGitHubProvider } from './github-scm-provider.js';
import { gitHubWebhook } from './github-webhook.js';

/** The `gitHostA` family: GitHub.com, GHE.com and GitHub Enterprise Server, with a PAT or a GitHub App. */
export function gitHubFamily(options: GitHubOptions = {}): ScmProviderFamilyV1 {
  return {
    specificationVersion: 'v1',
    family: 'gitHostA',
    displayName: 'GitHub',
    authenticationKinds: ['personalAccessToken', 'appInstallation'],
    receiverSegment: 'gitHostA',
    codeReviewPlatform: 'pullRequest',
    // Repositories are read as `/repositories/{id}`: their owner must be checked against a configuration's.
    capabilities: { repositoriesById: true, wikiSources: false, committableSuggestions: 'suggestionBlock' },
    connect: (connection) => createGitHubProvider(connection, options),
    webhook: gitHubWebhook,
    pullRequestUrls: gitHubPullRequestUrls,
  };
}
