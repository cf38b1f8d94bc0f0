import {
  type AiConnectionConfig,
  type AiDiscoveryResult,
  type AiProbeResult,
  type AiProviderKindV1,
  failureCategoryOf,
  failureSummaryOf,
  type KnownModelV1,
  MarginError,
  z,
} from '@margin/core/spec';
import type { AiRuntime } from '@margin/providers';
import { ACME, createAcmeClient } from './acme-client.js';
import { ACME_KIND, ACME_PROTOCOLS, createAcmeModel } from './acme-model.js';

/**
 * Acme's models with their list prices (USD per million tokens). Core lists them in the model
 * catalog under `kindAcme`, and fills a discovered model's prices and limits in from here.
 */
export const ACME_KNOWN_MODELS: readonly KnownModelV1[] = [
  {
    remoteModelId: 'acme-coder-1',
    displayName: 'Acme Coder 1',
    operationKinds: ['chat'],
    maxContextTokens: 64_000,
    supportsStructuredOutput: false,
    supportsToolUse: false,
    inputCostPer1MUsd: 1.2,
    outputCostPer1MUsd: 4.8,
  },
  {
    remoteModelId: 'acme-mini',
    displayName: 'Acme Mini',
    operationKinds: ['chat'],
    maxContextTokens: 8_000,
    supportsStructuredOutput: false,
    supportsToolUse: false,
    inputCostPer1MUsd: 0.15,
    outputCostPer1MUsd: 0.6,
  },
];

/**
 * `kindAcme`'s settings. A profile has no field for them: they ride in its `defaultQueryParams`
 * (`{ "workspace": "team-reviews" }`), core checks them against this schema when the profile is
 * saved, probed or used (400 at `defaultQueryParams.workspace`, with this message), and hands the
 * adapter them parsed in `connection.settings`; every other entry stays a query parameter.
 *
 * `workspace`: the Acme workspace whose models and quota a call uses, sent as `x-acme-workspace`;
 * without it Acme uses the key's default workspace.
 */
export const ACME_SETTINGS = z.object({
  workspace: z
    .string()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'must be an Acme workspace slug such as team-reviews')
    .optional(),
});
export type AcmeSettings = z.output<typeof ACME_SETTINGS>;

/**
 * Acme Models as an `AiProviderKindV1` of its own, `kindAcme`. The facts it declares are all core
 * needs to check its profiles: no default endpoint (so `baseUrl` is required), a key is always
 * needed, no managed identity (so `azureIdentity` is refused), one chat protocol and no embeddings,
 * and one setting, `workspace`. Typed with its settings, so `connection.settings.workspace` is a
 * `string | undefined`; the registry holds it as a plain `AiProviderKindV1`.
 */
export function createAcmeModelsKind(runtime: AiRuntime): AiProviderKindV1<AcmeSettings> {
  return {
    specificationVersion: 'v1',
    kind: ACME_KIND,
    displayName: ACME,
    protocols: ACME_PROTOCOLS,
    supportsDiscovery: true,
    requiresApiKey: true,
    knownModels: ACME_KNOWN_MODELS,
    settings: ACME_SETTINGS,

    async probe(connection: AiConnectionConfig<AcmeSettings>): Promise<AiProbeResult> {
      try {
        const models = await createAcmeClient(runtime, connection).listModels();
        return { status: 'succeeded', summary: `${ACME} listed ${models.length} models.`, warnings: [] };
      } catch (error) {
        if (isConfigurationError(error)) throw error;
        // Core's own reading of a failed call, so a probe and a verify of the same fault agree.
        return {
          status: 'failed',
          failureCategory: failureCategoryOf(error),
          summary: failureSummaryOf(error),
          warnings: [],
        };
      }
    },

    async discoverModels(connection: AiConnectionConfig<AcmeSettings>): Promise<AiDiscoveryResult> {
      try {
        const models = await createAcmeClient(runtime, connection).listModels();
        return {
          discoveryStatus: 'succeeded',
          manualEntryAllowed: true,
          warnings: [],
          models: models.map((m) => ({
            remoteModelId: m.id,
            displayName: m.displayName,
            operationKinds: ['chat'],
            maxContextTokens: m.contextWindow,
          })),
        };
      } catch (error) {
        if (isConfigurationError(error)) throw error;
        // A failed listing never blocks setup: models can always be entered by hand.
        return {
          discoveryStatus: 'failed',
          manualEntryAllowed: true,
          warnings: [`Model discovery failed: ${failureSummaryOf(error)}`],
          models: [],
        };
      }
    },

    createModel: (connection, spec) => createAcmeModel(createAcmeClient(runtime, connection), spec),
  };
}

/** A profile this kind cannot use (no key) answers 400 naming the field, not a failed probe. */
function isConfigurationError(error: unknown): boolean {
  return MarginError.isInstance(error) && error.code === 'validation_failed';
}
