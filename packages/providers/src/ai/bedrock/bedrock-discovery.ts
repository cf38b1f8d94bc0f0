import { type DiscoveredModel, MarginError } from '@margin/core/spec';
import { type JsonObject, readArray, readObject, readString } from '../../utils/index.js';

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
  const summaries = readObject(body)?.modelSummaries;
  if (!Array.isArray(summaries)) {
    throw MarginError.provider(
      'invalidResponse',
      'AWS Bedrock answered the foundation-model list in an unexpected shape.',
    );
  }
  const models: DiscoveredModel[] = [];
  const kindsById = new Map<string, Array<'chat' | 'embedding'>>();
  for (const summary of readArray(summaries).map((item) => readObject(item))) {
    const id = readString(summary?.modelId);
    if (!summary || !id) continue;
    const outputs = readArray(summary.outputModalities);
    const kinds: Array<'chat' | 'embedding'> | undefined = outputs.includes('EMBEDDING')
      ? ['embedding']
      : outputs.includes('TEXT')
        ? ['chat']
        : undefined;
    if (!kinds) continue; // image, video, speech
    kindsById.set(id, kinds);
    const lifecycle = readString(readObject(summary.modelLifecycle)?.status);
    const onDemand = readArray(summary.inferenceTypesSupported).includes('ON_DEMAND');
    if ((lifecycle !== undefined && lifecycle !== 'ACTIVE') || !onDemand) continue;
    const provider = readString(summary.providerName);
    const name = readString(summary.modelName);
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
  const response = readObject(body);
  const models: DiscoveredModel[] = [];
  for (const profile of readArray(response?.inferenceProfileSummaries).map((item) => readObject(item))) {
    const id = readString(profile?.inferenceProfileId);
    if (!profile || !id || (profile.status !== undefined && profile.status !== 'ACTIVE')) continue;
    models.push({
      remoteModelId: id,
      displayName: readString(profile.inferenceProfileName) ?? id,
      operationKinds: kindsOfProfile(profile, kindsById),
    });
  }
  return { models, nextToken: readString(response?.nextToken) };
}

function kindsOfProfile(profile: JsonObject, kindsById: Map<string, Array<'chat' | 'embedding'>>) {
  for (const model of readArray(profile.models).map((item) => readObject(item))) {
    const arn = readString(model?.modelArn) ?? '';
    const modelId = arn.slice(arn.indexOf('foundation-model/') + 'foundation-model/'.length);
    const kinds = kindsById.get(modelId);
    if (kinds) return kinds;
  }
  return ['chat' as const];
}
