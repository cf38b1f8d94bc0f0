import {
  type AiConnectionConfig,
  type AiDiscoveryResult,
  type AiProbeResult,
  type AiProviderKindV1,
  failureCategoryOf,
  failureSummaryOf,
  MarginError,
} from '@margin/core';
import type { AiRuntime } from '@margin/providers';
import { ACME, createAcmeClient } from './acme-client.js';
import { ACME_PROTOCOL_MODES, createAcmeModel } from './acme-model.js';

/**
 * Acme Models as the `AiProviderKindV1` port. Provider kinds are a fixed list in core
 * (`AI_PROVIDER_KINDS`), so a plugin cannot add `kindAcme`; it serves an existing kind instead.
 * `kindCompatible` ("a server Margin has no dedicated adapter for") fits: its profiles need a base
 * URL, as Acme does. Register it in place of the built-in OpenAI-compatible adapter (see registry.ts).
 */
export function createAcmeModelsKind(runtime: AiRuntime): AiProviderKindV1 {
  return {
    specificationVersion: 'v1',
    kind: 'kindCompatible',
    protocolModes: ACME_PROTOCOL_MODES,
    supportsDiscovery: true,

    async probe(connection: AiConnectionConfig): Promise<AiProbeResult> {
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

    async discoverModels(connection: AiConnectionConfig): Promise<AiDiscoveryResult> {
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
