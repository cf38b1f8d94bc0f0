import type { ScmProviderFamilyV1 } from '@margin/core';
import type { GitHubOptions } from './github-options.js';
import { createGitHubProvider } from './github-scm-provider.js';
import { gitHubWebhook } from './github-webhook.js';

/** The `gitHostA` family: GitHub.com, GHE.com and GitHub Enterprise Server, with a PAT or a GitHub App. */
export function gitHubFamily(options: GitHubOptions = {}): ScmProviderFamilyV1 {
  return {
    specificationVersion: 'v1',
    family: 'gitHostA',
    authenticationKinds: ['personalAccessToken', 'appInstallation'],
    connect: (connection) => createGitHubProvider(connection, options),
    webhook: gitHubWebhook,
  };
}
