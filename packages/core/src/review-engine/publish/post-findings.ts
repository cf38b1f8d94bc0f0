import { MarginError } from '../../kernel/index.js';
import type { CreateThreadOutcome, ReviewThread, Revision } from '../../scm-provider/index.js';
import { demote, type EngineFinding } from '../engine-finding.js';
import { findingMarker } from '../memory/review-memory.js';
import type { ReviewRun } from '../pipeline/review-run.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import { inlineBody } from './comment-body.js';
import type { PostCounts, PublishInput } from './publish-input.js';

/** A finding's thread on the provider, and the marker it was posted with. */
export type PostedThreads = Map<EngineFinding, { threadId: string; marker: string }>;

/** Where publishing stands: its pass, our markers found on the provider, the revision posted on. */
export interface PublishScene {
  pass: ProtocolPass;
  onProvider: ReadonlyMap<string, ReviewThread>;
  revision: Revision;
}

type ToPost = { finding: EngineFinding; marker: string };

/**
 * Posts the published findings' threads: inline ones in one batch, pull-request-level ones (root
 * causes consolidated across files) one by one, each reserved in the outbox before it is sent and
 * recorded after. Threads an earlier attempt of this job posted are not posted again; one it
 * posted without recording is recorded now. A refused thread moves its finding to the summary.
 */
export async function postFindings(
  run: ReviewRun,
  input: PublishInput,
  scene: PublishScene,
): Promise<PostCounts & { threads: PostedThreads }> {
  const threads: PostedThreads = new Map();
  const toPost = await reconcileEarlierPosts(run, input, scene, threads);
  if (toPost.length === 0) return { posted: 0, failed: 0, threads };
  return { ...(await sendThreads(toPost, input, scene, threads)), threads };
}

/** The findings to post, after recording what an earlier attempt of this job already posted. */
async function reconcileEarlierPosts(
  run: ReviewRun,
  input: PublishInput,
  { pass, onProvider }: PublishScene,
  threads: PostedThreads,
): Promise<ToPost[]> {
  const ownEntries = new Map(run.ledger.filter((e) => e.jobId === input.jobId).map((e) => [e.marker, e]));
  const toPost: ToPost[] = [];
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
      if (finding.providerThreadId) threads.set(finding, { threadId: finding.providerThreadId, marker });
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
  return toPost;
}

/** Reserves, sends and records the threads; one refused thread does not stop the others. */
async function sendThreads(
  toPost: readonly ToPost[],
  input: PublishInput,
  { pass, revision }: PublishScene,
  threads: PostedThreads,
): Promise<PostCounts> {
  const counts: PostCounts = { posted: 0, failed: 0 };
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
              body: inlineBody(finding, input.hostBaseUrl, input.suggestionSyntax),
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
    const { finding, marker } = sent[i] as ToPost;
    if (outcome.ok) {
      counts.posted++;
      finding.providerThreadId = outcome.thread.threadId;
      threads.set(finding, { threadId: outcome.thread.threadId, marker });
      await input.ledger.markPosted(marker, { threadId: outcome.thread.threadId, commentId: outcome.thread.commentId });
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
      counts.failed++;
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
  return counts;
}
