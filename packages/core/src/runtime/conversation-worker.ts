import type { MarginCore } from '../core.js';
import type { MarginLogger } from './logger.js';
import { PolledWork } from './polled-work.js';

export interface ConversationWorkerOptions {
  core: MarginCore;
  logger: MarginLogger;
  /** False: this process answers no mentions. Default true. */
  enabled?: boolean | undefined;
  pollIntervalMs: number;
  /** How long a taken conversation is this host's; a crashed host's go to another after it. */
  leaseMs: number;
}

/**
 * Answers mentions of Margin off the request path: leases queued conversations (two hosts never
 * take the same one), runs the command or asks the model, replies on the provider. Woken at once
 * when this host records a mention.
 */
export class ConversationWorker extends PolledWork {
  constructor(private readonly options: ConversationWorkerOptions) {
    super('conversations', options.enabled !== false, options);
  }

  protected async tick(signal: AbortSignal): Promise<void> {
    const { core, leaseMs } = this.options;
    const limit = 10;
    while (!signal.aborted) {
      const handled = await core.conversations.processQueued({ owner: this.owner, leaseMs, limit });
      if (handled < limit) break;
    }
  }
}
