import type { EventCategory, PassOutcome } from './vocabulary.js';

export interface ProtocolEventInput {
  kind: string;
  name: string;
  eventCategory: EventCategory;
  durationMs?: number | undefined;
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  body?: unknown;
}

export interface PassTokens {
  inputTokens?: number;
  cachedInputTokens?: number;
  outputTokens?: number;
}

/** One pass of the protocol: events are buffered and written when the pass completes. */
export interface ProtocolPass {
  readonly id: string;
  event(event: ProtocolEventInput): void;
  complete(outcome: Exclude<PassOutcome, 'running'>, tokens?: PassTokens): Promise<void>;
}

/**
 * What every stage of a review writes to, so "why was this finding not posted?" always has an
 * answer: a pass per stage (or file) with categorised events and token counts. The service
 * implements it over its storage (`core/reviewing`); reviews without a database keep it in memory.
 */
export interface ProtocolWriter {
  pass(stage: string, label: string, filePath?: string): Promise<ProtocolPass>;
}
