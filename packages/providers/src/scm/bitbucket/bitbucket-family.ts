import { MarginError, type ScmConnectionConfig, type ScmProviderFamilyV1 } from '@margin/core/spec';
import type { HttpTuning } from '../../utils/index.js';
import { bitbucketPullRequestUrls } from './bitbucket-pull-request-url.js';
import { createBitbucketProvider } from './bitbucket-scm-provider.js';
import { createBitbucketWebhook } from './bitbucket-webhook.js';

export interface BitbucketFamilyOptions {
  fetch?: typeof fetch | undefined;
  /** Overrides the REST base for every connection (`https://api.bitbucket.org/2.0`). Tests point it at a fake. */
  apiBaseUrl?: string | undefined;
  http?: HttpTuning | undefined;
}

/**
 * The Bitbucket Cloud family (`gitHostC`). `personalAccessToken` covers both Bitbucket credentials:
 * an Atlassian API token entered as `email:token`, or an access token entered alone.
 */
export function bitbucketFamily(options: BitbucketFamilyOptions = {}): ScmProviderFamilyV1 {
  return {
    specificationVersion: 'v1',
    family: 'gitHostC',
    displayName: 'Bitbucket',
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: 'gitHostC',
    codeReviewPlatform: 'pullRequest',
    // Every path names the workspace, which bounds what a token reaches.
    capabilities: { repositoriesById: false, wikiSources: false },
    connect(connection: ScmConnectionConfig) {
      if (connection.authenticationKind !== 'personalAccessToken') {
        throw MarginError.validation(
          `Bitbucket connections use authenticationKind 'personalAccessToken', not '${connection.authenticationKind}'.`,
        );
      }
      return createBitbucketProvider({
        hostBaseUrl: connection.hostBaseUrl,
        secret: connection.secret,
        apiBaseUrl: options.apiBaseUrl,
        fetch: options.fetch,
        http: options.http,
      });
    },
    webhook: createBitbucketWebhook(),
    pullRequestUrls: bitbucketPullRequestUrls,
  };
}
