import type { HealthCheck } from '../system/index.js';
import type { HealthContributor } from './health.js';
import type { MarginLogger } from './logger.js';
import { leaseOwnerId } from './owner-id.js';
import { Poller } from './poller.js';

/**
 * A background part driven by a poller, with its own lease owner id: started unless disabled on this
 * process, woken early by this process's own events, stopped, and reporting its health the same way.
 */
export abstract class PolledWork implements HealthContributor {
  /** Unique per instance, so several processes (or several in one test) never share leases. */
  readonly owner = leaseOwnerId();
  protected readonly poller: Poller;

  constructor(
    readonly name: string,
    private readonly enabled: boolean,
    options: { pollIntervalMs: number; logger: MarginLogger },
  ) {
    this.poller = new Poller({
      name,
      intervalMs: options.pollIntervalMs,
      logger: options.logger,
      tick: (signal) => this.tick(signal),
    });
  }

  /** One round of work; errors are logged by the poller and the next round runs as scheduled. */
  protected abstract tick(signal: AbortSignal): Promise<void>;

  start(): void {
    if (this.enabled) this.poller.start();
  }

  /** Works at once instead of at the next poll. */
  wake(): void {
    this.poller.wake();
  }

  stop(): Promise<void> {
    return this.poller.stop();
  }

  check(): HealthCheck {
    return this.enabled ? this.poller.check() : { status: 'ok', detail: 'disabled on this host' };
  }
}
