import type { AiConnectionConfig, AiProviderKindV1 } from '@margin/core/spec';
import { createTokenCache, joinUrl } from '../../utils/index.js';
import type { AiRuntime } from '../shared/ai-runtime.js';
import { baseUrlOf, defaultHeadersOf, pathOf } from '../shared/connection-settings.js';
import { discoveryFailed } from '../shared/discovery.js';
import { OPENAI_MODELS } from '../shared/known-models.js';
import {
  type AzureManagedIdentityOptions,
  COGNITIVE_SERVICES_RESOURCE,
  createImdsTokenProvider,
} from './azure-managed-identity.js';
import { OPENAI_PATHS } from './openai-direct-kind.js';
import { inspectOpenAiError } from './openai-errors.js';
import { listOpenAiModels } from './openai-model-listing.js';
import { defineOpenAiWireKind, OPENAI_STYLE_PROTOCOLS } from './openai-wire-kind.js';
import type { OpenAiOperation } from './openai-wire-target.js';

const DATED_API_VERSION = /^\d{4}-\d{2}-\d{2}/;

/**
 * The two URL shapes of Azure OpenAI / Foundry (providers.md §6.3):
 * - v1 (default): `https://{resource}.openai.azure.com/openai/v1/{responses|chat/completions|…}`,
 *   `model` = deployment name. A bare resource URL or one ending in `/openai` gets `/openai/v1`.
 * - dated: chosen when `defaultQueryParams['api-version']` is a dated version (e.g. `2024-10-21`)
 *   and the base URL is not a `/openai/v1` URL: `…/openai/deployments/{deployment}/chat/completions`.
 */
export function azureShape(connection: AiConnectionConfig): { root: string; dated: boolean } {
  const base = baseUrlOf(connection);
  const path = pathOf(base);
  const apiVersion = connection.defaultQueryParams?.['api-version'];
  const isV1Url = /\/openai\/v1$/i.test(path);
  const dated = apiVersion !== undefined && DATED_API_VERSION.test(apiVersion) && !isV1Url;
  const resourcePath = path.replace(/\/openai(\/v1)?$/i, '');
  const root = `${base.origin}${resourcePath}/openai${dated ? '' : '/v1'}`;
  return { root, dated };
}

function azureUrl(shape: { root: string; dated: boolean }, operation: OpenAiOperation, deployment: string): string {
  if (shape.dated && (operation === 'chatCompletions' || operation === 'embeddings')) {
    return joinUrl(shape.root, 'deployments', encodeURIComponent(deployment), OPENAI_PATHS[operation]);
  }
  return joinUrl(shape.root, OPENAI_PATHS[operation]);
}

/**
 * `kindCloudA`: Azure OpenAI / Azure AI Foundry. Auth: `api-key` header, or (`azureIdentity`) an
 * Entra token from the host's managed identity, cached until shortly before it expires. `auto`
 * uses the Responses API on v1 URLs and Chat Completions on dated ones (Responses is preview-only
 * there). Deployments can be listed only through Azure Resource Manager, so discovery is manual.
 */
export function createAzureOpenAiKind(
  runtime: AiRuntime,
  identity: AzureManagedIdentityOptions = {},
): AiProviderKindV1 {
  const tokens = createTokenCache({ now: runtime.now });
  const tokenProvider = createImdsTokenProvider(identity, runtime.now);
  let lastToken = '';
  const managedIdentityToken = async () => {
    lastToken = await tokens.get(`${COGNITIVE_SERVICES_RESOURCE}|${identity.clientId ?? ''}`, () =>
      tokenProvider(COGNITIVE_SERVICES_RESOURCE),
    );
    return lastToken;
  };

  return defineOpenAiWireKind({
    kind: 'kindCloudA',
    displayName: 'Azure OpenAI',
    protocols: OPENAI_STYLE_PROTOCOLS,
    supportsDiscovery: false,
    requiresApiKey: true,
    // The installation's identity token goes to Azure OpenAI and Azure AI hosts only.
    managedIdentity: {
      hosts: /\.(openai\.azure\.(com|us|cn)|cognitiveservices\.azure\.(com|us|cn)|services\.ai\.azure\.(com|us|cn))$/i,
      hostsDescription:
        'an Azure OpenAI or Azure AI host (*.openai.azure.com, *.cognitiveservices.azure.com, *.services.ai.azure.com)',
    },
    knownModels: OPENAI_MODELS,
    target(connection) {
      const shape = azureShape(connection);
      const auth = connection.auth;
      const key = auth.mode === 'apiKey' ? auth.apiKey.trim() : '';
      return {
        kind: 'kindCloudA',
        provider: 'Azure OpenAI',
        transport: runtime.transport({
          provider: 'Azure OpenAI',
          secrets: () => [key, lastToken],
          inspectError: inspectOpenAiError,
        }),
        autoChatMode: shape.dated ? 'chatCompletions' : 'responses',
        maxTokensField: 'max_completion_tokens',
        sendsEmbeddingDimensions: true,
        url: (operation, model) => azureUrl(shape, operation, model),
        query: () => ({ ...connection.defaultQueryParams }),
        headers: async () => ({
          ...defaultHeadersOf(connection),
          ...(auth.mode === 'apiKey'
            ? { 'api-key': key }
            : { authorization: `Bearer ${await managedIdentityToken()}` }),
        }),
      };
    },
    async probe(target, connection) {
      const models = await listOpenAiModels(target);
      const how = connection.auth.mode === 'azureIdentity' ? 'the managed-identity token' : 'the key';
      return { summary: `Azure OpenAI accepted ${how}; the resource offers ${models.length} models.` };
    },
    async discover() {
      return discoveryFailed(
        'Azure OpenAI deployments can be listed only through Azure Resource Manager, not with the data-plane credentials of this profile. Enter each deployment name as a model manually.',
      );
    },
  });
}
