import { MarginError } from '../../errors.js';
import type { CreateThreadOutcome, ReviewThread } from '../../scm/index.js';
import { demote, type EngineFinding } from '../engine-finding.js';
import { sanitizeOutbound } from '../hostile/outbound.js';
import {
  type FindingStore,
  findingMarker,
  type PublicationLedger,
  resolutionMarker,
  SUMMARY_MARKER,
} from '../memory/review-memory.js';
import type { ProtocolWriter } from '../protocol/protocol-writer.js';
import { renderSummary } from '../summary/summary.js';
import { rememberFindings } from './remember-findings.js';
import { lifecycleOf, type ReviewRun } from './review-run.js';
import type { ReviewPublisher } from './review-source.js';

export interface PublishInput {
  jobId: string;
  publisher: ReviewPublisher;
  ledger: PublicationLedger;
  protocol: ProtocolWriter;
  signal: AbortSignal;
  /** The provider's host: links to it survive sanitising. */
  hostBaseUrl?: string | undefined;
  onPublished?: ((finding: EngineFinding) => void) | undefined;
  /** Remembers findings across pushes; without it, only markers prevent reposts. */
  findings?: FindingStore | undefined;
}

export interface PublishOutcome {
  posted: number;
  failed: number;
  /** Earlier findings whose threads were resolved with a note. */
  resolved: number;
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
  let postCount = 0;
  let failed = 0;

  const toPost: Array<{ finding: EngineFinding; marker: string }> = [];
  const posted = new Map<EngineFinding, { threadId: string; marker: string }>();
  for (const finding of run.findings) {
    // Inline findings, and root causes consolidated across files (one pull-request-level thread each).
    if (finding.publication !== 'published' || !(finding.anchor || finding.places) || !finding.keys) continue;
    const reopening = run.identity.matches.get(finding);
    const marker = findingMarker(
      finding.keys.fingerprint,
      reopening?.outcome === 'reopen' ? reopening.known.reopenCount + 1 : 0,
    );
    const mine = ownEntries.get(marker);
    const there = onProvider.get(marker);
    if (mine?.state === 'posted' || (mine && there)) {
      // Posted by an earlier attempt of this job; record it if the crash came before the record.
      finding.providerThreadId = mine.providerThreadId ?? there?.threadId;
      if (finding.providerThreadId) posted.set(finding, { threadId: finding.providerThreadId, marker });
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
    const inline = toPost.filter((p) => p.finding.anchor);
    const pullRequestLevel = toPost.filter((p) => !p.finding.anchor);
    const outcomes: CreateThreadOutcome[] =
      inline.length === 0
        ? []
        : await input.publisher.createThreads(
            {
              revision,
              threads: inline.map(({ finding, marker }) => ({
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
    for (const { finding, marker } of pullRequestLevel) {
      try {
        const thread = await input.publisher.createThread(
          { body: inlineBody(finding, input.hostBaseUrl), revision, marker },
          { signal: input.signal },
        );
        outcomes.push({ ok: true, thread });
      } catch (error) {
        if (input.signal.aborted || !MarginError.isInstance(error)) throw error;
        outcomes.push({ ok: false, error });
      }
    }
    const sent = [...inline, ...pullRequestLevel];
    for (const [i, outcome] of outcomes.entries()) {
      const { finding, marker } = sent[i] as (typeof sent)[number];
      if (outcome.ok) {
        postCount++;
        finding.providerThreadId = outcome.thread.threadId;
        posted.set(finding, { threadId: outcome.thread.threadId, marker });
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

  const resolved = await resolveFixed(run, input, pass);

  // The summary names the outcome of the posts, so it is written after them.
  run.summary = renderSummary({
    headSha: revision.headSha,
    findings: run.findings,
    coverage: run.coverage,
    lifecycle: lifecycleOf(run.identity),
  });
  const summaryBody = sanitizeOutbound(run.summary ?? '', { allowedHost: hostOf(input.hostBaseUrl) });
  const known = run.ledger.find((e) => e.marker === SUMMARY_MARKER && e.state === 'posted' && e.providerThreadId);
  const existing = onProvider.get(SUMMARY_MARKER);
  const threadId = existing?.threadId ?? known?.providerThreadId ?? undefined;
  const commentId = existing?.comments[0]?.commentId ?? known?.providerCommentId ?? undefined;
  let summaryDone = false;
  if (threadId && commentId && existing?.comments[0]?.body.trim() === summaryBody.trim()) {
    // The same words again (the same revision reviewed twice): no edit, no notification.
    await input.ledger.reserve([{ marker: SUMMARY_MARKER, kind: 'summary', fingerprint: null }]);
    await input.ledger.markPosted(SUMMARY_MARKER, { threadId, commentId });
    pass.event({ kind: 'decision', name: 'summary.unchanged', eventCategory: 'publication', body: { threadId } });
    summaryDone = true;
    postCount++;
  } else if (threadId && commentId) {
    try {
      await input.publisher.editComment(
        { threadId, commentId, body: summaryBody, marker: SUMMARY_MARKER },
        { signal: input.signal },
      );
      await input.ledger.reserve([{ marker: SUMMARY_MARKER, kind: 'summary', fingerprint: null }]);
      await input.ledger.markPosted(SUMMARY_MARKER, { threadId, commentId });
      pass.event({ kind: 'call', name: 'summary.edited', eventCategory: 'publication', body: { threadId } });
      summaryDone = true;
      postCount++;
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
      postCount++;
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
  if (input.findings) {
    const remembered = await rememberFindings(run, input.findings, posted);
    pass.event({ kind: 'decision', name: 'findings.remembered', eventCategory: 'memory', body: remembered });
  }
  await pass.complete(failed > 0 && postCount === 0 ? 'failed' : 'succeeded');
  if (postCount === 0 && failed > 0) {
    throw MarginError.provider(
      'rejected',
      `The provider refused every comment of this review (${failed}); see the protocol for each refusal.`,
    );
  }
  return { posted: postCount, failed, resolved };
}

/**
 * Resolves the threads of findings this push fixed, each with a short note, through the outbox: a
 * retry after a crash sees the entry (or the thread already resolved) and does not write the note twice.
 */
async function resolveFixed(
  run: ReviewRun,
  input: PublishInput,
  pass: Awaited<ReturnType<ProtocolWriter['pass']>>,
): Promise<number> {
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

/**
 * A finding as a thread's first comment: severity and title, the message, the places of a root cause
 * found in several files, and a replacement when there is one.
 */
export function inlineBody(f: EngineFinding, hostBaseUrl?: string): string {
  const parts = [`**${f.severity}** · ${f.category} — **${f.title}**`, '', f.message];
  if (f.places) {
    parts.push('', `The same in ${f.places.length} places:`);
    for (const p of f.places) parts.push(`- \`${p.path}${p.line ? `:${p.line}` : ''}\``);
  }
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
