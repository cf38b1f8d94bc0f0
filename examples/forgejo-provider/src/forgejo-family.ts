import type { ProviderFamily, ScmProviderFamilyV1 } from '@margin/core';
import type { ForgejoOptions } from './forgejo-options.js';
import { createForgejoProvider } from './forgejo-scm-provider.js';
import { forgejoWebhook } from './forgejo-webhook.js';

/** The family id this plugin registers: stored connections, configurations and jobs name it. */
export const FORGEJO_FAMILY_ID = 'forgejo';

/**
 * The one cast of this plugin. Core's `ProviderFamily` has been the closed union of the built-in
 * families (`PROVIDER_FAMILIES`), of which `'forgejo'` is not a member. The cast goes away when
 * provider families are an open registry (`ProviderFamily` accepting any registered id): then this
 * reads `export const FORGEJO_FAMILY: ProviderFamily = FORGEJO_FAMILY_ID;`.
 */
export const FORGEJO_FAMILY = FORGEJO_FAMILY_ID as unknown as ProviderFamily;

/**
 * The Forgejo/Gitea family (Forgejo, Codeberg, Gitea; personal access tokens), with the facts an
 * open registry derives the rest from: its name, the webhook receiver's path segment
 * (`/webhooks/v1/providers/forgejo/<pathKey>`), what it calls a code review, and that it reads
 * repositories by id (`GET /repositories/{id}`), so core must bound configurations by owner.
 */
export function createForgejoFamily(options: ForgejoOptions = {}): ScmProviderFamilyV1 {
  const family = {
    specificationVersion: 'v1',
    family: FORGEJO_FAMILY,
    displayName: 'Forgejo',
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: FORGEJO_FAMILY_ID,
    codeReviewPlatform: 'pullRequest',
    capabilities: { repositoriesById: true, wikiSources: false },
    connect: (connection) => createForgejoProvider(connection, FORGEJO_FAMILY, options),
    webhook: forgejoWebhook,
  } as const satisfies Pick<ScmProviderFamilyV1, 'specificationVersion' | 'family' | 'connect' | 'webhook'> &
    Record<string, unknown>;
  // Returned as a value, not a literal, so the declared facts also fit a `ScmProviderFamilyV1` that
  // does not list them yet.
  return family;
}
