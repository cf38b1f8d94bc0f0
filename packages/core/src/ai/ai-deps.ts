import type { CoreDeps } from '../deps.js';

export interface AiSettings {
  /** `MARGIN_ALLOW_PRIVATE_EGRESS`: profiles may name loopback/private hosts and plain http. */
  allowPrivateEgress: boolean;
}

/** What the AI use cases need: the core's dependencies plus the host's AI settings. */
export type AiDeps = CoreDeps & { ai: AiSettings };
