/**
 * Deadlines of outbound calls. A deadline is a signal that aborts when its parent does (with the
 * parent's reason: the caller stopped the call) or when its time is up (with `DeadlineExceeded`),
 * so whoever catches the abort can tell cancellation from a timeout without guessing from names.
 */

/**
 * The reason a deadline's signal aborts with when its time is up. Named as the platform names a
 * timeout (`AbortSignal.timeout`), which is what ky's retry rules recognise.
 */
export class DeadlineExceeded extends Error {
  constructor(readonly ms: number) {
    super(`No complete answer within ${ms} ms.`);
    this.name = 'TimeoutError';
  }
}

export interface Deadline {
  readonly signal: AbortSignal;
  /** Milliseconds left, never negative. */
  remainingMs(): number;
  /** True when the time ran out, false when it did not or the parent aborted first. */
  expired(): boolean;
  /** Stops the timer and lets go of the parent; call it once the work under the deadline is done. */
  clear(): void;
}

/** A deadline `ms` from now (on the monotonic clock), aborting early when `parent` does. */
export function startDeadline(ms: number, parent?: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  const endsAt = performance.now() + ms;
  const follow = () => controller.abort(parent?.reason);
  let timedOut: DeadlineExceeded | undefined;
  const timer = setTimeout(() => {
    timedOut = new DeadlineExceeded(ms);
    controller.abort(timedOut);
  }, ms);
  if (parent?.aborted) follow();
  else parent?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    remainingMs: () => Math.max(0, endsAt - performance.now()),
    // Its own timeout only: a parent that ran out of time aborts this one with the parent's reason.
    expired: () => timedOut !== undefined && controller.signal.reason === timedOut,
    clear() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', follow);
    },
  };
}

/**
 * A fetch whose every call must be over within `ms`: connecting, the headers and the whole body.
 * The body is read here, under the same deadline, and handed on in memory, so no reader after it
 * (the transport, a hook, an adapter) can wait on a provider that trickles its answer. An abort of
 * the caller's signal passes through as it is; running out of time rejects with `DeadlineExceeded`.
 */
export function fetchWithinDeadline(fetch: () => typeof globalThis.fetch, ms: number): typeof globalThis.fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const caller = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const deadline = startDeadline(ms, caller ?? undefined);
    try {
      const answer = await fetch()(input, { ...init, signal: deadline.signal });
      const body = await answer.arrayBuffer();
      // An empty body is no body, which null-body statuses (204, 304) require.
      return new Response(body.byteLength > 0 ? body : null, {
        status: answer.status,
        statusText: answer.statusText,
        headers: answer.headers,
      });
    } catch (error) {
      // A fetch rejects with the signal's reason; one that does not still reads as what happened.
      if (deadline.expired()) throw deadline.signal.reason;
      throw error;
    } finally {
      deadline.clear();
    }
  }) as typeof globalThis.fetch;
}
