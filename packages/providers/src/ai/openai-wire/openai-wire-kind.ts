import type {
  AiConnectionConfig,
  AiDiscoveryResult,
  AiModelSpec,
  AiModelV1,
  AiProviderKind,
  AiProviderKindV1,
  ProtocolMode,
} from '@margin/core';
import { discoverWith } from '../shared/discovery.js';
import { probeWith } from '../shared/probe-outcome.js';
import { assertModePermitted } from '../shared/protocol-mode.js';
import { createOpenAiWireModel } from './openai-wire-model.js';
import type { OpenAiWireTarget } from './openai-wire-target.js';

/** Protocol modes of the OpenAI-style kinds that may use the Responses API (decisions.md). */
export const OPENAI_STYLE_MODES: readonly ProtocolMode[] = ['auto', 'responses', 'chatCompletions', 'embeddings'];

export interface OpenAiWireKindDefinition {
  kind: AiProviderKind;
  protocolModes: readonly ProtocolMode[];
  supportsDiscovery: boolean;
  target(connection: AiConnectionConfig): OpenAiWireTarget;
  /** The cheap authenticated call; answers a one-line summary. */
  probe(target: OpenAiWireTarget, connection: AiConnectionConfig): Promise<{ summary: string; warnings?: string[] }>;
  discover(target: OpenAiWireTarget, connection: AiConnectionConfig): Promise<AiDiscoveryResult>;
  /** Notes about the configuration itself, shown with every probe. */
  configurationWarnings?(connection: AiConnectionConfig): string[];
}

/** Builds an OpenAI-style kind from its endpoint/auth rules; the wire code is shared. */
export function defineOpenAiWireKind(definition: OpenAiWireKindDefinition): AiProviderKindV1 {
  return {
    specificationVersion: 'v1',
    kind: definition.kind,
    protocolModes: definition.protocolModes,
    supportsDiscovery: definition.supportsDiscovery,
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
      assertModePermitted(definition.kind, definition.protocolModes, spec);
      return createOpenAiWireModel(definition.target(connection), spec);
    },
  };
}
