import type { AiProviderKind, AiProviderKindV1 } from './ai/ai-model-v1.js';
import { MarginError } from './errors.js';
import type { ProviderFamily, ScmProviderFamilyV1 } from './scm/scm-provider-v1.js';

/** The adapters a host plugs in. A family or kind missing here is simply not available. */
export interface ProviderRegistry {
  scm: readonly ScmProviderFamilyV1[];
  ai: readonly AiProviderKindV1[];
}

export function scmFamily(registry: ProviderRegistry, family: ProviderFamily): ScmProviderFamilyV1 {
  const found = registry.scm.find((p) => p.family === family);
  if (!found)
    throw MarginError.validation(`Source-control provider '${family}' is not available in this installation.`);
  return found;
}

export function aiKind(registry: ProviderRegistry, kind: AiProviderKind): AiProviderKindV1 {
  const found = registry.ai.find((p) => p.kind === kind);
  if (!found) throw MarginError.validation(`AI provider kind '${kind}' is not available in this installation.`);
  return found;
}
