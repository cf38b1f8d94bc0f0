import type { AiProviderKind, AiProviderKindV1 } from '../ai-model/index.js';
import { MarginError, type ValidationIssue } from '../kernel/index.js';
import type { ProviderFamily, ScmProviderFamilyV1 } from '../scm-provider/index.js';

/**
 * The adapters a host plugs in: the built-in ones and any a plugin adds. A family or kind missing
 * here is simply not available; every fact core needs about one (its credentials, receiver path,
 * protocol modes, endpoints) comes from what it declares.
 */
export interface ProviderRegistry {
  scm: readonly ScmProviderFamilyV1[];
  ai: readonly AiProviderKindV1[];
  /**
   * Whether the AI adapters reach loopback/private hosts over plain http (`MARGIN_ALLOW_PRIVATE_EGRESS`).
   * The adapters enforce it at connect time; core's save-time checks follow it, so it is set once, here.
   */
  readonly allowPrivateEgress?: boolean | undefined;
}

/**
 * The family of something stored (a connection, a configuration, a job). Stored under a family no
 * longer registered here (its plugin was removed): 409, since the request itself is fine.
 */
export function scmFamily(registry: ProviderRegistry, family: ProviderFamily): ScmProviderFamilyV1 {
  const found = registry.scm.find((p) => p.family === family);
  if (!found) {
    throw MarginError.conflict(
      `Source-control provider '${family}' is not registered in this installation; register its plugin to use what was saved for it.`,
    );
  }
  return found;
}

/** The family a request names; one this installation does not register is a 400 naming the field. */
export function requestedScmFamily(registry: ProviderRegistry, family: ProviderFamily, field: string) {
  const found = registry.scm.find((p) => p.family === family);
  if (!found) {
    throw MarginError.invalid([
      { path: field, message: `must be one of ${registry.scm.map((f) => f.family).join(', ')}` },
    ]);
  }
  return found;
}

/** The family whose webhook receiver segment this is (matched ignoring case), if any. */
export function familyOfSegment(registry: ProviderRegistry, segment: string): ScmProviderFamilyV1 | undefined {
  const wanted = segment.toLowerCase();
  return registry.scm.find((f) => f.receiverSegment.toLowerCase() === wanted);
}

/**
 * How a request naming an AI kind this installation does not register is refused, wherever it is
 * checked (the catalog, a profile's endpoint, probe and discovery, a review without a server), so it
 * reads the same everywhere: the kind, and the kinds there are.
 */
export function unregisteredAiKindIssue(
  registry: Pick<ProviderRegistry, 'ai'>,
  kind: AiProviderKind,
  field: string,
): ValidationIssue {
  const registered = registry.ai.map((k) => k.kind).join(', ');
  return {
    path: field,
    message: `AI provider kind ${kind} is not available in this installation; use one of ${registered}.`,
  };
}

/** The kind a request names; one this installation does not register is a 400 naming the field. */
export function requestedAiKind(registry: ProviderRegistry, kind: AiProviderKind, field: string): AiProviderKindV1 {
  const found = registry.ai.find((p) => p.kind === kind);
  if (!found) throw MarginError.invalid([unregisteredAiKindIssue(registry, kind, field)]);
  return found;
}
