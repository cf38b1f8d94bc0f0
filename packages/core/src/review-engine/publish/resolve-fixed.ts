import { resolutionMarker } from '../memory/review-memory.js';
import type { ReviewRun } from '../pipeline/review-run.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import { messageOf } from './comment-body.js';
import type { PublishInput } from './publish-input.js';

/**
 * Resolves the threads of findings this push fixed, each with a short note, through the outbox: a
 * retry after a crash sees the entry (or the thread already resolved) and does not write the note twice.
 */
export async function resolveFixed(run: ReviewRun, input: PublishInput, pass: ProtocolPass): Promise<number> {
  const head = run.revision?.headSha ?? '';
  const threads = new Map(run.threads.map((t) => [t.threadId, t]));
  const done = new Set(run.ledger.filter((e) => e.kind === 'resolution' && e.state === 'posted').map((e) => e.marker));
  let resolved = 0;
  for (const k of run.identity.settled.resolved) {
    if (!k.providerThreadId) continue;
    const marker = resolutionMarker(k.id);
    if (done.has(marker) || threads.get(k.providerThreadId)?.status === 'resolved') {
      resolved++;
      continue;
    }
    await input.ledger.reserve([{ marker, kind: 'resolution', fingerprint: k.fingerprint }]);
    try {
      await input.publisher.reply(
        k.providerThreadId,
        `Resolved in \`${head.slice(0, 12)}\`: the code this comment pointed at changed, and the review of this push no longer finds the problem.`,
        { signal: input.signal },
      );
      await input.publisher.setThreadStatus(k.providerThreadId, 'resolved', { signal: input.signal });
      await input.ledger.markPosted(marker, { threadId: k.providerThreadId, commentId: null });
      pass.event({
        kind: 'call',
        name: 'thread.resolved',
        eventCategory: 'publication',
        body: { knownFindingId: k.id, threadId: k.providerThreadId },
      });
      resolved++;
    } catch (error) {
      if (input.signal.aborted) throw error;
      await input.ledger.markFailed(marker, messageOf(error));
      pass.event({
        kind: 'failure',
        name: 'thread.resolveFailed',
        eventCategory: 'publication',
        body: { knownFindingId: k.id, threadId: k.providerThreadId, message: messageOf(error) },
      });
    }
  }
  return resolved;
}
