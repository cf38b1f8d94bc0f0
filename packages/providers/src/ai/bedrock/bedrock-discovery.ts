import { MarginError } from '@margin/core';
import type { DiscoveredModel } from '@margin/core/spec';
import { asArray, asObject, asString, type JsonObject } from '../shared/wire-values.js';

export interface FoundationModelsPage {
  models: DiscoveredModel[];
  /** modelId → operation kinds, to classify inference profiles by the model they route to. */
  kindsById: Map<string, Array<'chat' | 'embedding'>>;
}

/**
 * `GET /foundation-models` → `modelSummaries[]`. Kept: active text or embedding models invocable
 * on demand; the others are reachable only through an inference profile, listed separately.
 */
export function readFoundationModels(body: unknown): FoundationModelsPage {
  const summaries = asObject(body)?.modelSummaries;
  if (!Array.isArray(summaries)) {
    throw MarginError.provider(
      'invalidResponse',
      'AWS Bedrock answered the foundation-model list in an unexpected shape.',
    );
  }
  const models: DiscoveredModel[] = [];
  const kindsById = new Map<string, Array<'chat' | 'embedding'>>();
  for (const summary of asArray(summaries).map(asObject)) {
    const id = asString(summary?.modelId);
    if (!summary || !id) continue;
    const outputs = asArray(summary.outputModalities);
    const kinds: Array<'chat' | 'embedding'> | undefined = outputs.includes('EMBEDDING')
      ? ['embedding']
      : outputs.includes('TEXT')
        ? ['chat']
        : undefined;
    if (!kinds) continue; // image, video, speech
    kindsById.set(id, kinds);
    const lifecycle = asString(asObject(summary.modelLifecycle)?.status);
    const onDemand = asArray(summary.inferenceTypesSupported).includes('ON_DEMAND');
    if ((lifecycle !== undefined && lifecycle !== 'ACTIVE') || !onDemand) continue;
    const provider = asString(summary.providerName);
    const name = asString(summary.modelName);
    models.push({
      remoteModelId: id,
      displayName: provider && name ? `${provider} ${name}` : (name ?? id),
      operationKinds: kinds,
    });
  }
  return { models, kindsById };
}

/** `GET /inference-profiles` → `inferenceProfileSummaries[]` and `nextToken`. */
export function readInferenceProfiles(
  body: unknown,
  kindsById: Map<string, Array<'chat' | 'embedding'>>,
): { models: DiscoveredModel[]; nextToken: string | undefined } {
  const response = asObject(body);
  const models: DiscoveredModel[] = [];
  for (const profile of asArray(response?.inferenceProfileSummaries).map(asObject)) {
    const id = asString(profile?.inferenceProfileId);
    if (!profile || !id || (profile.status !== undefined && profile.status !== 'ACTIVE')) continue;
    models.push({
      remoteModelId: id,
      displayName: asString(profile.inferenceProfileName) ?? id,
      operationKinds: kindsOfProfile(profile, kindsById),
    });
  }
  return { models, nextToken: asString(response?.nextToken) };
}

function kindsOfProfile(profile: JsonObject, kindsById: Map<string, Array<'chat' | 'embedding'>>) {
  for (const model of asArray(profile.models).map(asObject)) {
    const arn = asString(model?.modelArn) ?? '';
    const modelId = arn.slice(arn.indexOf('foundation-model/') + 'foundation-model/'.length);
    const kinds = kindsById.get(modelId);
    if (kinds) return kinds;
  }
  return ['chat' as const];
}
