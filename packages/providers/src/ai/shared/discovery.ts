import { type AiDiscoveryResult, type DiscoveredModel, MarginError } from '@margin/core/spec';

export function discoveryFailed(warning: string, warnings: string[] = []): AiDiscoveryResult {
  return { discoveryStatus: 'failed', manualEntryAllowed: true, warnings: [...warnings, warning], models: [] };
}

export function discoverySucceeded(models: DiscoveredModel[], warnings: string[] = []): AiDiscoveryResult {
  const seen = new Set<string>();
  const unique = models.filter((m) => {
    const key = m.remoteModelId.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  unique.sort((a, b) => a.remoteModelId.localeCompare(b.remoteModelId));
  return { discoveryStatus: 'succeeded', manualEntryAllowed: true, warnings, models: unique };
}

/**
 * Runs a discovery; a provider failure becomes `failed` with the reason as a warning (manual entry
 * stays possible), while a configuration error is thrown.
 */
export async function discoverWith(call: () => Promise<AiDiscoveryResult>): Promise<AiDiscoveryResult> {
  try {
    return await call();
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'validation_failed') throw error;
    const reason = MarginError.isInstance(error) ? error.message : 'an unexpected error';
    return discoveryFailed(`Model discovery failed: ${reason} Enter models manually or fix the connection.`);
  }
}

/** The spec's inference: an id mentioning embedding is an embedding model, anything else chat. */
export function operationKindsFromId(id: string): Array<'chat' | 'embedding'> {
  return /embed/i.test(id) ? ['embedding'] : ['chat'];
}

/** Catalogue entries that are not text models (images, audio, moderation) in OpenAI-style lists. */
export function isNonTextModel(id: string): boolean {
  return /(dall-e|gpt-image|whisper|tts|transcribe|sora|moderation|realtime|audio|davinci|babbage|computer-use)/i.test(
    id,
  );
}
