import type { ProviderFamily, ScmProviderFamilyV1 } from '@margin/core/spec';
import type { ProviderPlugin } from '@margin/providers';
import type { ForgejoOptions } from './forgejo-options.js';
import { forgejoPullRequestUrls } from './forgejo-pull-request-url.js';
import { createForgejoProvider } from './forgejo-scm-provider.js';
import { forgejoWebhook } from './forgejo-webhook.js';

/** The family id this plugin registers: stored connections, configurations and jobs name it. */
export const FORGEJO_FAMILY_ID = 'forgejo';

/** The same id, typed as the family connections and configurations name. */
export const FORGEJO_FAMILY: ProviderFamily = FORGEJO_FAMILY_ID;

/** The plugin's name, in the host's log line and in registry errors. */
export const FORGEJO_PLUGIN_NAME = '@margin/example-forgejo-provider';

/**
 * The Forgejo/Gitea family (Forgejo, Codeberg, Gitea; personal access tokens), with the facts the
 * registry derives the rest from: its name, the webhook receiver's path segment
 * (`/webhooks/v1/providers/forgejo/<pathKey>`), what it calls a code review and the shape of its
 * pull requests' addresses (`margin review --pr https://codeberg.org/OWNER/REPO/pulls/7`).
 *
 * `repositoriesById`: the adapter is handed a repository's numeric id (as webhooks name it) and reads
 * it with `GET /repositories/{id}`, which answers for any repository the token can see, whatever its
 * owner; only then does it address `/repos/{owner}/{repo}` with the owner Forgejo returned. Nothing in
 * the path bounds the owner, so core checks the pull request's `repositoryOwner` against the
 * configuration's owner.
 */
export function createForgejoFamily(options: ForgejoOptions = {}): ScmProviderFamilyV1 {
  return {
    specificationVersion: 'v1',
    family: FORGEJO_FAMILY,
    displayName: 'Forgejo',
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: FORGEJO_FAMILY_ID,
    codeReviewPlatform: 'pullRequest',
    capabilities: { repositoriesById: true, wikiSources: false },
    connect: (connection) => createForgejoProvider(connection, FORGEJO_FAMILY, options),
    webhook: forgejoWebhook,
    pullRequestUrls: forgejoPullRequestUrls,
  };
}

/** What a host may tune; the network is always the one the registry hands the plugin. */
export type ForgejoPluginOptions = Omit<ForgejoOptions, 'fetch'>;

/**
 * The plugin a host registers: `createProviderRegistry({ plugins: [forgejoPlugin()] })`. The registry
 * calls `scm` once with its source-control network — the egress-guarded fetch the built-in families
 * use (addresses checked on the connection made, no redirect to another host) — and the family sends
 * everything through it.
 */
export function forgejoPlugin(options: ForgejoPluginOptions = {}): ProviderPlugin {
  return {
    name: FORGEJO_PLUGIN_NAME,
    scm: ({ fetch }) => [createForgejoFamily({ ...options, fetch })],
  };
}
