import { type CreatedThread, type CreateThreadOutcome, toMarginError } from '@margin/core';

/**
 * Creates threads one after another, in input order, so one the provider refuses (a position it
 * cannot place) does not fail the others. A cancelled call stops at once and throws: what was
 * already posted carries its marker, so the retry finds it.
 */
export async function createOneByOne<T>(
  threads: readonly T[],
  create: (thread: T) => Promise<CreatedThread>,
  signal?: AbortSignal | undefined,
): Promise<CreateThreadOutcome[]> {
  const outcomes: CreateThreadOutcome[] = [];
  for (const thread of threads) {
    try {
      outcomes.push({ ok: true, thread: await create(thread) });
    } catch (error) {
      if (signal?.aborted) throw error;
      outcomes.push({ ok: false, error: toMarginError(error) });
    }
  }
  return outcomes;
}
