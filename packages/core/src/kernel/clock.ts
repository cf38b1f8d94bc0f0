/** Time, injected so that rules depending on it can be tested deterministically. */
export interface Clock {
  now(): Date;
  /** Waits `ms`; a test clock may record the wait instead. Default: a real timer. */
  sleep?(ms: number): Promise<void>;
}

export const systemClock: Clock = { now: () => new Date() };

/** Waits through the clock when it can, else with a real timer. */
export function pause(clock: Clock, ms: number): Promise<void> {
  if (clock.sleep) return clock.sleep(ms);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
