import { MarginError } from '../../errors.js';
import type { ProtocolWriter } from '../../reviewing/protocol-writer.js';
import type { ReviewThread } from '../../scm/scm-provider-v1.js';
import { demote, type EngineFinding } from '../engine-finding.js';
import { sanitizeOutbound } from '../hostile/outbound.js';
import { findingMarker, type PublicationLedger, SUMMARY_MARKER } from '../memory/review-memory.js';
import { renderSummary } from '../summary/summary.js';
import type { ReviewPublisher } from './review-source.js';
import type { ReviewRun } from './run-review.js';

export interface PublishInput {
  jobId: string;
  publisher: ReviewPublisher;
  ledger: PublicationLedger;
  protocol: ProtocolWriter;
  signal: AbortSignal;
  /** The provider's host: links to it survive sanitising. */
  hostBaseUrl?: string | undefined;
  onPublished?: ((finding: EngineFinding) => void) | undefined;
}

export interface PublishOutcome {
  posted: number;
  failed: number;
}

/**
 * Posts the inline threads in one batch and the summary once per pull request (edited in place on
 * later runs), through the outbox: every post is reserved before it is sent and recorded after, each
 * with its hidden marker. A retry of the same job first looks for its markers on the provider, so
 * a crash between "posted" and "recorded" never posts twice. One refused comment does not fail the
 * others; a run whose every post is refused fails.
 */
export async function publishReview(run: ReviewRun, input: PublishInput): Promise<PublishOutcome> {
  const revision = run.revision;
  if (!revision) throw MarginError.internal('Nothing to publish: the review did not run.');
  const pass = await input.protocol.pass('publish', 'Publish threads and the summary');
  const onProvider = new Map<string, ReviewThread>();
  for (const thread of run.threads) if (thread.marker) onProvider.set(thread.marker, thread);
  const ownEntries = new Map(run.ledger.filter((e) => e.jobId === input.jobId).map((e) => [e.marker, e]));
  let posted = 0;
  let failed = 0;

  const toPost: Array<{ finding: EngineFinding; marker: string }> = [];
  for (const finding of run.findings) {
    if (finding.publication !== 'published' || !finding.anchor || !finding.keys) continue;
    const marker = findingMarker(finding.keys.fingerprint);
    const mine = ownEntries.get(marker);
    const there = onProvider.get(marker);
    if (mine?.state === 'posted' || (mine && there)) {
      // Posted by an earlier attempt of this job; record it if the crash came before the record.
      finding.providerThreadId = mine.providerThreadId ?? there?.threadId;
      if (mine.state !== 'posted' && there) {
        await input.ledger.markPosted(marker, {
          threadId: there.threadId,
          commentId: there.comments[0]?.commentId ?? null,
        });
        pass.event({
          kind: 'decision',
          name: 'thread.reconciled',
          eventCategory: 'publication',
          body: { findingId: finding.id, marker },
        });
      }
      continue;
    }
    toPost.push({ finding, marker });
  }

  if (toPost.length > 0) {
    await input.ledger.reserve(
      toPost.map((p) => ({
        marker: p.marker,
        kind: 'finding' as const,
        fingerprint: p.finding.keys?.fingerprint ?? null,
      })),
    );
    const outcomes = await input.publisher.createThreads(
      {
        revision,
        threads: toPost.map(({ finding, marker }) => ({
          body: inlineBody(finding, input.hostBaseUrl),
          anchor: {
            filePath: finding.anchor?.path ?? '',
            previousPath: finding.anchor?.previousPath,
            startLine: finding.anchor?.startLine ?? 1,
            endLine: finding.anchor?.endLine ?? 1,
            side: finding.anchor?.side ?? 'new',
          },
          marker,
        })),
      },
      { signal: input.signal },
    );
    for (const [i, outcome] of outcomes.entries()) {
      const { finding, marker } = toPost[i] as (typeof toPost)[number];
      if (outcome.ok) {
        posted++;
        finding.providerThreadId = outcome.thread.threadId;
        await input.ledger.markPosted(marker, {
          threadId: outcome.thread.threadId,
          commentId: outcome.thread.commentId,
        });
        pass.event({
          kind: 'call',
          name: 'thread.created',
          eventCategory: 'publication',
          body: {
            findingId: finding.id,
            threadId: outcome.thread.threadId,
            path: finding.anchor?.path,
            line: finding.anchor?.startLine,
          },
        });
        input.onPublished?.(finding);
      } else {
        failed++;
        await input.ledger.markFailed(marker, outcome.error.message);
        demote(finding, 'summaryOnly', 'publishFailed');
        pass.event({
          kind: 'failure',
          name: 'thread.refused',
          eventCategory: 'publication',
          body: {
            findingId: finding.id,
            path: finding.anchor?.path,
            line: finding.anchor?.startLine,
            message: outcome.error.message,
          },
        });
      }
    }
  }

  // The summary names the outcome of the posts, so it is written after them.
  if (run.coverage)
    run.summary = renderSummary({ headSha: revision.headSha, findings: run.findings, coverage: run.coverage });
  const summaryBody = sanitizeOutbound(run.summary ?? '', { allowedHost: hostOf(input.hostBaseUrl) });
  const known = run.ledger.find((e) => e.marker === SUMMARY_MARKER && e.state === 'posted' && e.providerThreadId);
  const existing = onProvider.get(SUMMARY_MARKER);
  const threadId = existing?.threadId ?? known?.providerThreadId ?? undefined;
  const commentId = existing?.comments[0]?.commentId ?? known?.providerCommentId ?? undefined;
  let summaryDone = false;
  if (threadId && commentId) {
    try {
      await input.publisher.editComment(
        { threadId, commentId, body: summaryBody, marker: SUMMARY_MARKER },
        { signal: input.signal },
      );
      await input.ledger.reserve([{ marker: SUMMARY_MARKER, kind: 'summary', fingerprint: null }]);
      await input.ledger.markPosted(SUMMARY_MARKER, { threadId, commentId });
      pass.event({ kind: 'call', name: 'summary.edited', eventCategory: 'publication', body: { threadId } });
      summaryDone = true;
      posted++;
    } catch (error) {
      if (input.signal.aborted) throw error;
      // Deleted by a person, or no longer editable: a new summary replaces it.
      pass.event({
        kind: 'warning',
        name: 'summary.editFailed',
        eventCategory: 'publication',
        body: { message: messageOf(error) },
      });
    }
  }
  if (!summaryDone) {
    await input.ledger.reserve([{ marker: SUMMARY_MARKER, kind: 'summary', fingerprint: null }]);
    try {
      const created = await input.publisher.createThread(
        { body: summaryBody, revision, marker: SUMMARY_MARKER },
        { signal: input.signal },
      );
      await input.ledger.markPosted(SUMMARY_MARKER, { threadId: created.threadId, commentId: created.commentId });
      pass.event({
        kind: 'call',
        name: 'summary.created',
        eventCategory: 'publication',
        body: { threadId: created.threadId },
      });
      posted++;
    } catch (error) {
      if (input.signal.aborted) throw error;
      failed++;
      await input.ledger.markFailed(SUMMARY_MARKER, messageOf(error));
      pass.event({
        kind: 'failure',
        name: 'summary.refused',
        eventCategory: 'publication',
        body: { message: messageOf(error) },
      });
    }
  }
  await pass.complete(failed > 0 && posted === 0 ? 'failed' : 'succeeded');
  if (posted === 0 && failed > 0) {
    throw MarginError.provider(
      'rejected',
      `The provider refused every comment of this review (${failed}); see the protocol for each refusal.`,
    );
  }
  return { posted, failed };
}

/** A finding as a thread's first comment: severity and title, the message, and a replacement when there is one. */
export function inlineBody(f: EngineFinding, hostBaseUrl?: string): string {
  const parts = [`**${f.severity}** · ${f.category} — **${f.title}**`, '', f.message];
  if (f.suggestion) {
    const longestRun = Math.max(2, ...[...f.suggestion.matchAll(/`+/g)].map((m) => m[0].length));
    const fenceMark = '`'.repeat(longestRun + 1);
    parts.push('', 'Suggested change:', `${fenceMark}`, f.suggestion, fenceMark);
  }
  return sanitizeOutbound(parts.join('\n'), { allowedHost: hostOf(hostBaseUrl) });
}

function hostOf(url: string | undefined): string | undefined {
  return url && URL.canParse(url) ? new URL(url).host : undefined;
}

function messageOf(error: unknown): string {
  return MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The call failed.';
}
