import {
  type CreatedThread,
  type CreateThreadInput,
  type CreateThreadOutcome,
  MarginError,
  type ThreadAnchor,
} from '@margin/core';

/**
 * `createThreads` for providers without a native batch: one request per thread, in input order. A
 * thread the provider refuses (or any other provider failure) becomes `{ ok: false }` and the rest
 * are still posted; only a cancelled call stops the batch, since nothing after it may be sent.
 */
export async function createThreadsOneByOne(
  threads: ReadonlyArray<Omit<CreateThreadInput, 'revision'>>,
  createOne: (thread: Omit<CreateThreadInput, 'revision'>) => Promise<CreatedThread>,
  signal: AbortSignal | undefined,
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

/** `src/a.ts` line 5, or lines 5–7, on the old side when the anchor says so. */
export function describeAnchor(anchor: ThreadAnchor): string {
  const lines =
    anchor.startLine === anchor.endLine ? `line ${anchor.endLine}` : `lines ${anchor.startLine}–${anchor.endLine}`;
  return `${anchor.filePath} ${lines}${anchor.side === 'old' ? ' (old side)' : ''}`;
}

/**
 * A provider's 400/422 answer to an inline thread, as the refusal it is: `provider_unavailable`
 * with `providerFailure: 'rejected'`, naming the place. Never retried and never turned into a
 * pull-request-level comment here; the caller decides what to do with the finding. Other errors are
 * returned unchanged.
 */
export function refusedThread(provider: string, anchor: ThreadAnchor, error: unknown): unknown {
  if (!MarginError.isInstance(error)) return error;
  const status = error.details.providerStatus;
  if (status !== 400 && status !== 422) return error;
  return MarginError.provider(
    'rejected',
    `${provider} refused a thread on ${describeAnchor(anchor)}: ${error.message}`,
    {
      providerStatus: status,
      cause: error,
    },
  );
}
