import type { CommittableSuggestionSyntax } from '../../scm-provider/index.js';
import type { EngineFinding } from '../engine-finding.js';
import type { FindingStore, PublicationLedger } from '../memory/review-memory.js';
import type { ReviewPublisher } from '../pipeline/review-source.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';

export interface PublishInput {
  jobId: string;
  publisher: ReviewPublisher;
  ledger: PublicationLedger;
  protocol: ProtocolWriter;
  signal: AbortSignal;
  /** The provider's host: links to it survive sanitising. */
  hostBaseUrl?: string | undefined;
  /** The family's committable-suggestion syntax; without it, replacements are plain blocks. */
  suggestionSyntax?: CommittableSuggestionSyntax | undefined;
  onPublished?: ((finding: EngineFinding) => void) | undefined;
  /** Remembers findings across pushes; without it, only markers prevent reposts. */
  findings?: FindingStore | undefined;
}

export interface PublishOutcome {
  posted: number;
  failed: number;
  /** Earlier findings whose threads were resolved with a note. */
  resolved: number;
}

/** Posts made and refused by one part of publishing. */
export interface PostCounts {
  posted: number;
  failed: number;
}
