import type { HealthCheck } from '../system/index.js';
import type { HealthContributor } from './health.js';
import type { MarginLogger } from './logger.js';

export interface PollerOptions {
  name: string;
  intervalMs: number;
  logger: MarginLogger;
  /** One round of work. Errors are logged and the next round runs as scheduled. */
  tick(signal: AbortSignal): Promise<void>;
}

/**
 * Runs `tick` every `intervalMs`, never two at once, and reports on its own liveness: healthy while
 * rounds complete on time, degraded while they fail or overrun, unhealthy once stopped.
 */
export class Poller implements HealthContributor {
  readonly name: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly abort = new AbortController();
  private lastSuccessAt = 0;
  private lastFailureAt = 0;
  private started = false;

  constructor(private readonly options: PollerOptions) {
    this.name = options.name;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.lastSuccessAt = Date.now();
    this.schedule(0);
  }

  /** Runs a round now (unless one is running) instead of waiting for the timer. */
  wake(): void {
    if (this.started && !this.running && !this.abort.signal.aborted) this.schedule(0);
  }

  /** Stops scheduling and waits for the round in flight. */
  async stop(): Promise<void> {
    this.abort.abort();
    clearTimeout(this.timer);
    await this.running;
  }

  check(): HealthCheck {
    if (!this.started || this.abort.signal.aborted) return { status: 'unhealthy', detail: 'stopped' };
    const overdueAfter = Math.max(this.options.intervalMs * 5, 30_000);
    if (this.lastFailureAt > this.lastSuccessAt) return { status: 'degraded', detail: 'the last round failed' };
    if (!this.running && Date.now() - this.lastSuccessAt > overdueAfter)
      return { status: 'degraded', detail: 'overdue' };
    return { status: 'ok' };
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => {
        this.running = undefined;
        if (!this.abort.signal.aborted) this.schedule(this.options.intervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      await this.options.tick(this.abort.signal);
      this.lastSuccessAt = Date.now();
    } catch (error) {
      this.lastFailureAt = Date.now();
      this.options.logger.error({ err: error, poller: this.name }, 'background round failed');
    }
  }
}
