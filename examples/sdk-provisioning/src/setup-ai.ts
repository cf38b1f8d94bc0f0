import type { MarginClient } from '@margin/sdk-client';
import { ProvisioningError, type ProvisionOptions } from './provision-options.js';
import { allItems, type Steps } from './steps.js';

export interface AiModelRef {
  connectionId: string;
  configuredModelId: string;
}

/** The AI profile with this display name, created when missing; then verified and activated until it is. */
export async function ensureAiConnection(
  margin: MarginClient,
  clientId: string,
  options: ProvisionOptions['ai'],
  steps: Steps,
): Promise<AiModelRef> {
  const name = options.displayName.toLowerCase();
  const profiles = await allItems((cursor) => margin.ai.listAiConnections(clientId, { limit: 200, cursor }));
  // Display names are unique per client ignoring case, so this finds the one the server would refuse to duplicate.
  let profile = profiles.find((p) => p.displayName.toLowerCase() === name);
  if (profile) {
    steps.record('AI connection', profile.id, 'unchanged', `"${profile.displayName}" exists`);
  } else {
    profile = await margin.ai.createAiConnection(clientId, {
      displayName: options.displayName,
      providerKind: options.providerKind,
      baseUrl: options.baseUrl,
      auth: { mode: 'apiKey', apiKey: options.apiKey },
      configuredModels: [options.model],
      // A fallback for the purpose; the logical-model mapping below is what reviews resolve first.
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: options.model.remoteModelId }],
    });
    steps.record('AI connection', profile.id, 'created', `"${profile.displayName}" (${profile.providerKind})`);
  }

  const wanted = options.model.remoteModelId.toLowerCase();
  const model = profile.configuredModels.find((m) => m.remoteModelId.toLowerCase() === wanted);
  if (!model) {
    // Changing someone's existing profile behind their back would reset its verification: say so instead.
    throw new ProvisioningError(
      'AI connection',
      `The AI connection "${profile.displayName}" exists without model ${options.model.remoteModelId}; add it there or choose another display name.`,
    );
  }

  if (profile.verification.status === 'verified') {
    steps.record('AI verification', profile.id, 'unchanged', 'already verified');
  } else {
    const verification = await margin.ai.verifyAiConnection(clientId, profile.id);
    if (verification.status !== 'verified') {
      throw new ProvisioningError(
        'AI connection',
        `"${profile.displayName}" failed verification (${verification.failureCategory ?? 'unknown'}): ${verification.summary}`,
      );
    }
    steps.record('AI verification', profile.id, 'changed', verification.summary);
  }

  if (profile.isActive) {
    steps.record('AI activation', profile.id, 'unchanged', 'already active');
  } else {
    await margin.ai.activateAiConnection(clientId, profile.id);
    steps.record('AI activation', profile.id, 'changed', 'activated');
  }
  return { connectionId: profile.id, configuredModelId: model.id };
}

/** A client logical model naming that model, and the `reviewDefault` purpose mapped to it. */
export async function ensureReviewModel(
  margin: MarginClient,
  clientId: string,
  logicalModelName: string,
  target: AiModelRef,
  steps: Steps,
): Promise<void> {
  const { items, purposes } = await margin.ai.listClientLogicalModels(clientId);
  const existing = items.find((m) => m.scope === 'client' && m.name.toLowerCase() === logicalModelName.toLowerCase());
  const body = { capability: 'chat' as const, ...target };
  if (!existing) {
    await margin.ai.createClientLogicalModel(clientId, { name: logicalModelName, ...body });
    steps.record('logical model', logicalModelName, 'created', `chat model ${target.configuredModelId}`);
  } else if (existing.connectionId !== target.connectionId || existing.configuredModelId !== target.configuredModelId) {
    await margin.ai.putClientLogicalModel(clientId, existing.name, body);
    steps.record('logical model', existing.name, 'changed', `repointed to chat model ${target.configuredModelId}`);
  } else {
    steps.record('logical model', existing.name, 'unchanged', 'already points at the model');
  }

  const mapped = purposes.find((p) => p.purpose === 'reviewDefault')?.logicalModelName;
  if (mapped?.toLowerCase() === logicalModelName.toLowerCase()) {
    steps.record('purpose', 'reviewDefault', 'unchanged', `already mapped to ${mapped}`);
  } else {
    await margin.ai.putClientPurpose(clientId, 'reviewDefault', { logicalModelName });
    steps.record('purpose', 'reviewDefault', 'changed', `mapped to ${logicalModelName}`);
  }
}
