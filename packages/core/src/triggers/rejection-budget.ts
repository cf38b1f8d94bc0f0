import type { Clock } from '../kernel/index.js';

export const REJECTIONS_RECORDED_PER_HOUR = 20;
const WINDOW_MS = 3600_000;
/** Configurations tracked at once; the least recently started window goes first. */
const MAX_TRACKED = 10_000;

interface Window {
  startedAt: number;
  recorded: number;
  unrecorded: number;
}

export type RejectionDecision = { record: true; unrecordedBefore: number } | { record: false };

/**
 * Rejected deliveries (bad signature, malformed body) are unauthenticated writes: anyone who knows
 * a listener URL can send them. Each configuration records at most 20 an hour; the rest are counted,
 * not stored, and the count rides on the next recorded rejection. So a flood neither grows the
 * database nor pushes the real deliveries out of the history. Counts live in this process.
 */
export class RejectionBudget {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  take(configurationId: string): RejectionDecision {
    const now = this.clock.now().getTime();
    let window = this.windows.get(configurationId);
    let carried = 0;
    if (!window || now - window.startedAt >= WINDOW_MS) {
      carried = window?.unrecorded ?? 0;
      window = { startedAt: now, recorded: 0, unrecorded: 0 };
      this.windows.delete(configurationId);
      this.windows.set(configurationId, window);
      if (this.windows.size > MAX_TRACKED) {
        const oldest = this.windows.keys().next();
        if (!oldest.done) this.windows.delete(oldest.value);
      }
    }
    if (window.recorded >= REJECTIONS_RECORDED_PER_HOUR) {
      window.unrecorded++;
      return { record: false };
    }
    window.recorded++;
    return { record: true, unrecordedBefore: carried };
  }
}

export const unrecordedAction = (count: number) =>
  `${count} more rejected deliveries were not recorded (at most ${REJECTIONS_RECORDED_PER_HOUR} are recorded an hour)`;
