import { type CreatedThread, type CreateThreadOutcome, MarginError } from '@margin/core/spec';

/**
 * `createThreads` one request per thread, in input order, for providers without a native batch (and
 * for GitHub's fallback after a refused review). A thread the provider refuses, or any other
 * provider failure (a `MarginError`), becomes that thread's `{ ok: false }` and the rest are still
 * posted. A cancelled call stops before the next thread and throws: nothing more may be sent, and
 * what was already posted carries its marker, so a retry finds it. Anything else thrown is a bug
 * and is rethrown rather than reported as a provider's answer.
 */
export async function createThreadsOneByOne<T>(
  threads: readonly T[],
  createOne: (thread: T) => Promise<CreatedThread>,
  signal?: AbortSignal | undefined,
): Promise<CreateThreadOutcome[]> {
  const outcomes: CreateThreadOutcome[] = [];
  for (const thread of threads) {
    signal?.throwIfAborted();
    try {
      outcomes.push({ ok: true, thread: await createOne(thread) });
    } catch (error) {
      if (signal?.aborted || !MarginError.isInstance(error)) throw error;
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}
