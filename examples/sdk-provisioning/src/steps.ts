import type { Step, StepOutcome } from './provision-options.js';

/** The steps of one run, in order, each logged as it happens. */
export class Steps {
  readonly list: Step[] = [];

  constructor(private readonly log: ((line: string) => void) | undefined) {}

  record(resource: string, id: string, outcome: StepOutcome, note: string): void {
    const step = { resource, id, outcome, note };
    this.list.push(step);
    this.log?.(formatStep(step));
  }
}

export function formatStep(step: Step): string {
  return `${step.outcome.padEnd(9)} ${step.resource} ${step.id}: ${step.note}`;
}

interface Page<T> {
  items: T[];
  nextCursor?: string | null | undefined;
}

/** Every item of a cursor-paged listing: "find or create" must not miss what is on page two. */
export async function allItems<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const next = await page(cursor);
    items.push(...next.items);
    cursor = next.nextCursor ?? undefined;
  } while (cursor);
  return items;
}
