import {
  type AiConnectionConfig,
  type AiDiscoveryResult,
  type AiModelSpec,
  type AiModelV1,
  type AiProtocolV1,
  type AiProviderKindV1,
  modesOf,
} from '@margin/core/spec';
import { discoverWith } from '../shared/discovery.js';
import { probeWith } from '../shared/probe-outcome.js';
import { assertModePermitted } from '../shared/protocol-mode.js';
import { createOpenAiWireModel } from './openai-wire-model.js';
import type { OpenAiWireTarget } from './openai-wire-target.js';

/** The protocols of the OpenAI-style kinds that may use the Responses API (decisions.md). */
export const OPENAI_STYLE_PROTOCOLS: readonly AiProtocolV1[] = [
  { mode: 'responses', operation: 'chat' },
  { mode: 'chatCompletions', operation: 'chat' },
  { mode: 'embeddings', operation: 'embedding' },
];

/** What an OpenAI-style kind declares (see `AiProviderKindV1`), and how it reaches its endpoint. */
export interface OpenAiWireKindDefinition
  extends Pick<
    AiProviderKindV1,
    | 'kind'
    | 'displayName'
    | 'protocols'
    | 'supportsDiscovery'
    | 'defaultEndpoint'
    | 'requiresApiKey'
    | 'managedIdentity'
    | 'knownModels'
  > {
  target(connection: AiConnectionConfig): OpenAiWireTarget;
  /** The cheap authenticated call; answers a one-line summary. */
  probe(target: OpenAiWireTarget, connection: AiConnectionConfig): Promise<{ summary: string; warnings?: string[] }>;
  discover(target: OpenAiWireTarget, connection: AiConnectionConfig): Promise<AiDiscoveryResult>;
  /** Notes about the configuration itself, shown with every probe. */
  configurationWarnings?(connection: AiConnectionConfig): string[];
}

/** Builds an OpenAI-style kind from its endpoint/auth rules; the wire code is shared. */
export function defineOpenAiWireKind(definition: OpenAiWireKindDefinition): AiProviderKindV1 {
  const permitted = modesOf(definition);
  return {
    specificationVersion: 'v1',
    kind: definition.kind,
    displayName: definition.displayName,
    protocols: definition.protocols,
    supportsDiscovery: definition.supportsDiscovery,
    defaultEndpoint: definition.defaultEndpoint,
    requiresApiKey: definition.requiresApiKey,
    managedIdentity: definition.managedIdentity,
    knownModels: definition.knownModels,
    async probe(connection) {
      const target = definition.target(connection);
      return probeWith(
        () => definition.probe(target, connection),
        definition.configurationWarnings?.(connection) ?? [],
      );
    },
    async discoverModels(connection) {
      const target = definition.target(connection);
      return discoverWith(() => definition.discover(target, connection));
    },
    createModel(connection: AiConnectionConfig, spec: AiModelSpec): AiModelV1 {
      assertModePermitted(definition.kind, permitted, spec);
      return createOpenAiWireModel(definition.target(connection), spec);
    },
  };
}
