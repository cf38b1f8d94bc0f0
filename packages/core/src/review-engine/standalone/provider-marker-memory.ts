import {
  createMemoryLedger,
  type PublicationEntry,
  type PublicationLedger,
  type ReviewMemory,
  SUMMARY_MARKER,
} from '../memory/review-memory.js';
import type { ReviewSource } from '../pipeline/review-source.js';

const FINDING_MARKER = /^margin:fp=(.+)$/;

/**
 * What a review without a database remembers of a pull request: its hidden markers on the
 * provider. The outbox starts as the threads Margin posted earlier (read once, on first use), so a
 * second run finds its findings already reported and edits the summary in place instead of posting
 * anything twice. Nothing is dismissed.
 */
export function providerMarkerMemory(source: Pick<ReviewSource, 'listThreads'>, jobId: string): ReviewMemory {
  const entries = new Map<string, PublicationEntry>();
  const ledger = createMemoryLedger(jobId, entries);
  let seeded: Promise<void> | undefined;
  const seed = () => {
    seeded ??= (async () => {
      for await (const thread of source.listThreads()) {
        if (!thread.marker || entries.has(thread.marker)) continue;
        const finding = FINDING_MARKER.exec(thread.marker);
        if (!finding && thread.marker !== SUMMARY_MARKER) continue;
        entries.set(thread.marker, {
          marker: thread.marker,
          kind: finding ? 'finding' : 'summary',
          fingerprint: finding?.[1] ?? null,
          jobId: 'provider',
          state: 'posted',
          providerThreadId: thread.threadId,
          providerCommentId: thread.comments[0]?.commentId ?? null,
          error: null,
        });
      }
    })();
    return seeded;
  };
  const publications: PublicationLedger = {
    list: async () => {
      await seed();
      return ledger.list();
    },
    reserve: async (wanted) => {
      await seed();
      return ledger.reserve(wanted);
    },
    markPosted: (marker, ids) => ledger.markPosted(marker, ids),
    markFailed: (marker, error) => ledger.markFailed(marker, error),
  };
  return { dismissals: async () => [], publications };
}
