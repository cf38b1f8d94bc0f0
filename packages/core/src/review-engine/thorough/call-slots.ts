/**
 * The job's bound on model conversations in flight, shared by chunks and their thorough samples.
 * A chunk holds one slot for as long as it runs (its first sample and its verification use it);
 * extra samples run in parallel only on slots that are free at that moment (`tryAcquire`), and
 * otherwise one after another on the chunk's own. So a job never has more calls in flight than the
 * bound, and no chunk ever waits on a slot while holding one (no deadlock).
 */
export class CallSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.free = Math.max(1, Math.floor(limit));
  }

  /** Waits for a slot. */
  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** A slot if one is free now; never waits. */
  tryAcquire(): boolean {
    if (this.free === 0) return false;
    this.free--;
    return true;
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * Runs `work` for 0..count-1 on the slot the caller holds, plus as many extra slots as are free:
 * each extra one is given back as soon as no item is left for it.
 */
export async function runOnSlots<T>(
  count: number,
  slots: CallSlots,
  work: (index: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const runner = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await work(index);
    }
  };
  const extra: Array<Promise<void>> = [];
  for (let i = 1; i < count && slots.tryAcquire(); i++) extra.push(runner().finally(() => slots.release()));
  await Promise.all([runner(), ...extra]);
  return results;
}
