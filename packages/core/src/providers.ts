import type { AiProviderKind, AiProviderKindV1 } from './ai/ai-model-v1.js';
import { MarginError } from './errors.js';
import type { ProviderFamily, ScmProviderFamilyV1 } from './scm/scm-provider-v1.js';

/** The adapters a host plugs in. A family or kind missing here is simply not available. */
export interface ProviderRegistry {
  scm: readonly ScmProviderFamilyV1[];
  ai: readonly AiProviderKindV1[];
  /**
   * Whether the AI adapters reach loopback/private hosts over plain http (`MARGIN_ALLOW_PRIVATE_EGRESS`).
   * The adapters enforce it at connect time; core's save-time checks follow it, so it is set once, here.
   */
  readonly allowPrivateEgress?: boolean | undefined;
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
