import { MarginError, type ScmConnectionConfig, type ScmProviderFamilyV1 } from '@margin/core/spec';
import type { HttpTuning } from '../../utils/index.js';
import { gitLabPullRequestUrls } from './gitlab-pull-request-url.js';
import { createGitLabProvider } from './gitlab-scm-provider.js';
import { createGitLabWebhook } from './gitlab-webhook.js';

export interface GitLabFamilyOptions {
  fetch?: typeof fetch | undefined;
  /** Overrides the REST base for every connection (`<hostBaseUrl>/api/v4` by default). Tests point it at a fake. */
  apiBaseUrl?: string | undefined;
  http?: HttpTuning | undefined;
  /** Clock for the signing-token replay window. Default `Date.now`. */
  now?: (() => number) | undefined;
}

/** The GitLab family (`gitHostB`): GitLab.com and self-managed, personal/project/group access tokens. */
export function gitLabFamily(options: GitLabFamilyOptions = {}): ScmProviderFamilyV1 {
  return {
    specificationVersion: 'v1',
    family: 'gitHostB',
    displayName: 'GitLab',
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: 'gitHostB',
    codeReviewPlatform: 'mergeRequest',
    // Projects are read as `/projects/{id}`: their namespace must be checked against a configuration's group.
    // A range comment sits on its last line, so a suggestion counts the lines above it (`-N+0`).
    capabilities: { repositoriesById: true, wikiSources: false, committableSuggestions: 'suggestionBlockWithOffsets' },
    connect(connection: ScmConnectionConfig) {
      if (connection.authenticationKind !== 'personalAccessToken') {
        throw MarginError.validation(
          `GitLab connections use authenticationKind 'personalAccessToken', not '${connection.authenticationKind}'.`,
        );
      }
      return createGitLabProvider({
        hostBaseUrl: connection.hostBaseUrl,
        token: connection.secret,
        apiBaseUrl: options.apiBaseUrl,
        fetch: options.fetch,
        http: options.http,
      });
    },
    webhook: createGitLabWebhook({ now: options.now }),
    pullRequestUrls: gitLabPullRequestUrls,
  };
}
