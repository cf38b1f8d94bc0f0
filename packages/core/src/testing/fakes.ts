import type { Clock, Ids } from '../kernel/index.js';

/** A clock tests move by hand. */
export interface ManualClock extends Clock {
  set(at: Date | string): void;
  advance(ms: number): void;
  sleep(ms: number): Promise<void>;
  /** Every wait asked for, in order; waits return at once and leave the time as it is. */
  sleeps: number[];
}

export function createManualClock(start: Date | string = '2026-01-01T00:00:00.000Z'): ManualClock {
  let current = new Date(start).getTime();
  const sleeps: number[] = [];
  return {
    sleeps,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** Predictable ids: `00000000-0000-4000-8000-000000000001`, ... and counting hex secrets. */
export function createSequentialIds(): Ids {
  let n = 0;
  return {
    uuid: () => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`,
    randomHex: (bytes) => (++n).toString(16).padStart(bytes * 2, '0'),
  };
}
