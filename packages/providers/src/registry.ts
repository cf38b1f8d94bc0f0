import type { lookup as dnsLookup } from 'node:dns';
import { type AiProviderKindV1, MarginError, type ProviderRegistry, type ScmProviderFamilyV1 } from '@margin/core/spec';
import { type AiProviderKindsOptions, builtInAiKinds } from './ai/index.js';
import { type AiRuntime, createAiRuntime } from './ai/shared/ai-runtime.js';
import { azureDevOpsFamily } from './scm/azure-devops/index.js';
import { bitbucketFamily } from './scm/bitbucket/index.js';
import { gitHubFamily } from './scm/github/index.js';
import { gitLabFamily } from './scm/gitlab/index.js';
import { createEgressGuardedFetch, type HttpTuning } from './utils/index.js';

export interface ProviderRegistryOptions {
  /**
   * The network under every source-control adapter's egress guard; tests pass one that reaches
   * their fakes. Default: undici, with addresses checked at connect time.
   */
  fetch?: typeof fetch | undefined;
  /** Name resolution for the egress guards (tests point names at any address). */
  lookup?: typeof dnsLookup | undefined;
  /** Allow AI hosts on loopback/private addresses and plain http (`MARGIN_ALLOW_PRIVATE_EGRESS`). */
  allowPrivateEgress?: boolean | undefined;
  /** Microsoft Entra's authority for Azure DevOps client credentials (tests, sovereign clouds). */
  entraAuthorityUrl?: string | undefined;
  /** Bitbucket Cloud's API root, overridable for tests and proxies. */
  bitbucketApiBaseUrl?: string | undefined;
  /** Tuning of the AI kinds (timeouts, retries, the managed-identity endpoint). */
  ai?: Omit<AiProviderKindsOptions, 'allowPrivateEgress'> | undefined;
  /**
   * Transport tuning of the source-control families, built-in and plugged in: `timeoutMs` is the
   * deadline of one attempt of a call, body included (default 30 s).
   */
  scm?: HttpTuning | undefined;
  /**
   * Adapters that do not ship with Margin. Each gets the network the built-ins use, so what it
   * sends passes the same egress guard; a family or kind of the same id as a built-in replaces it.
   */
  plugins?: readonly ProviderPlugin[] | undefined;
}

/**
 * A package of adapters for families or kinds Margin does not ship (`docs/plugins.md`). The
 * registry calls each part once, with the host's guarded network.
 */
export interface ProviderPlugin {
  /** For messages: `@acme/margin-forgejo`. */
  readonly name: string;
  /**
   * Source-control families, on the source-control network (checked at connect time, no cross-host
   * redirects) and with the host's transport tuning, to pass to `createTransport`.
   */
  scm?(network: { fetch: typeof fetch; http: HttpTuning }): readonly ScmProviderFamilyV1[];
  /** AI provider kinds, on the AI runtime (its egress guard, timeouts, retries honouring `Retry-After`, redaction). */
  ai?(runtime: AiRuntime): readonly AiProviderKindV1[];
}

/** Every built-in adapter, ready to hand to `createMarginCore`. */
export function createProviderRegistry(options: ProviderRegistryOptions = {}): ProviderRegistry {
  // Source control gets the AI adapters' guarded transport: addresses checked on the connection
  // actually made (no DNS rebinding), metadata, link-local and reserved addresses refused, no
  // redirect to another host. Private addresses and plain http stay allowed: self-hosted servers
  // live there (the save-time rule for hostBaseUrl says the same).
  const fetch = createEgressGuardedFetch({
    allowPrivateEgress: true,
    redirects: 'sameOrigin',
    label: 'source-control',
    fetch: options.fetch,
    lookup: options.lookup,
  });
  const runtime = createAiRuntime({
    ...options.ai,
    lookup: options.ai?.lookup ?? options.lookup,
    allowPrivateEgress: options.allowPrivateEgress,
  });
  const plugins = options.plugins ?? [];
  const http = options.scm ?? {};
  return {
    scm: withPlugins(
      'provider family',
      (f) => f.family,
      [
        azureDevOpsFamily({ fetch, entraAuthorityUrl: options.entraAuthorityUrl, ...http }),
        gitHubFamily({ fetch, ...http }),
        gitLabFamily({ fetch, http }),
        bitbucketFamily({ fetch, apiBaseUrl: options.bitbucketApiBaseUrl, http }),
      ],
      plugins.map((p) => ({ name: p.name, adapters: p.scm?.({ fetch, http }) ?? [] })),
    ),
    ai: withPlugins(
      'AI provider kind',
      (k) => k.kind,
      builtInAiKinds(runtime, options.ai?.azureManagedIdentity),
      plugins.map((p) => ({ name: p.name, adapters: p.ai?.(runtime) ?? [] })),
    ),
    // Core's save-time checks follow what the adapters enforce.
    allowPrivateEgress: options.allowPrivateEgress === true,
  };
}

/** The built-ins, each replaced by a plugin's adapter of the same id, then the plugins' new ones. */
function withPlugins<T>(
  what: string,
  idOf: (adapter: T) => string,
  builtIn: readonly T[],
  plugins: ReadonlyArray<{ name: string; adapters: readonly T[] }>,
): T[] {
  const fromPlugins = new Map<string, { plugin: string; adapter: T }>();
  for (const { name, adapters } of plugins) {
    for (const adapter of adapters) {
      const id = idOf(adapter);
      const earlier = fromPlugins.get(id);
      if (earlier) {
        throw MarginError.validation(`Plugins ${earlier.plugin} and ${name} both register the ${what} '${id}'.`);
      }
      fromPlugins.set(id, { plugin: name, adapter });
    }
  }
  const builtInIds = new Set(builtIn.map(idOf));
  return [
    ...builtIn.map((a) => fromPlugins.get(idOf(a))?.adapter ?? a),
    ...[...fromPlugins.entries()].filter(([id]) => !builtInIds.has(id)).map(([, p]) => p.adapter),
  ];
}
