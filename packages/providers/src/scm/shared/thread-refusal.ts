import { MarginError, type ThreadAnchor } from '@margin/core/spec';

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
