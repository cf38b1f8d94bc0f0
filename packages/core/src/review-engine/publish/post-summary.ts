import { sanitizeOutbound } from '../hostile/outbound.js';
import { SUMMARY_MARKER } from '../memory/review-memory.js';
import { lifecycleOf, type ReviewRun } from '../pipeline/review-run.js';
import { renderSummary } from '../summary/summary.js';
import { hostOf, messageOf } from './comment-body.js';
import type { PublishScene } from './post-findings.js';
import type { PostCounts, PublishInput } from './publish-input.js';

/**
 * Writes the summary again, now that the posts' outcome is known, and posts it once per pull
 * request: the comment of an earlier run is left alone when the words are the same, edited in
 * place otherwise, and replaced by a new one when it can no longer be edited.
 */
export async function postSummary(run: ReviewRun, input: PublishInput, scene: PublishScene): Promise<PostCounts> {
  const { revision, onProvider } = scene;
  run.summary = renderSummary({
    headSha: revision.headSha,
    findings: run.findings,
    coverage: run.coverage,
    lifecycle: lifecycleOf(run.identity),
  });
  const body = sanitizeOutbound(run.summary ?? '', { allowedHost: hostOf(input.hostBaseUrl) });
  const known = run.ledger.find((e) => e.marker === SUMMARY_MARKER && e.state === 'posted' && e.providerThreadId);
  const existing = onProvider.get(SUMMARY_MARKER);
  const threadId = existing?.threadId ?? known?.providerThreadId ?? undefined;
  const commentId = existing?.comments[0]?.commentId ?? known?.providerCommentId ?? undefined;
  if (threadId && commentId) {
    const unchanged = existing?.comments[0]?.body.trim() === body.trim();
    if (await keepOrEdit({ threadId, commentId, body, unchanged }, input, scene)) return { posted: 1, failed: 0 };
  }
  return createSummary(body, input, scene);
}

/** The earlier summary comment, kept (the same words: no edit, no notification) or edited; false when the edit failed. */
async function keepOrEdit(
  summary: { threadId: string; commentId: string; body: string; unchanged: boolean },
  input: PublishInput,
  { pass }: PublishScene,
): Promise<boolean> {
  const { threadId, commentId } = summary;
  if (summary.unchanged) {
    await input.ledger.reserve([{ marker: SUMMARY_MARKER, kind: 'summary', fingerprint: null }]);
    await input.ledger.markPosted(SUMMARY_MARKER, { threadId, commentId });
    pass.event({ kind: 'decision', name: 'summary.unchanged', eventCategory: 'publication', body: { threadId } });
    return true;
  }
  try {
    await input.publisher.editComment(
      { threadId, commentId, body: summary.body, marker: SUMMARY_MARKER },
      { signal: input.signal },
    );
    await input.ledger.reserve([{ marker: SUMMARY_MARKER, kind: 'summary', fingerprint: null }]);
    await input.ledger.markPosted(SUMMARY_MARKER, { threadId, commentId });
    pass.event({ kind: 'call', name: 'summary.edited', eventCategory: 'publication', body: { threadId } });
    return true;
  } catch (error) {
    if (input.signal.aborted) throw error;
    // Deleted by a person, or no longer editable: a new summary replaces it.
    pass.event({
      kind: 'warning',
      name: 'summary.editFailed',
      eventCategory: 'publication',
      body: { message: messageOf(error) },
    });
    return false;
  }
}

async function createSummary(body: string, input: PublishInput, { pass, revision }: PublishScene): Promise<PostCounts> {
  await input.ledger.reserve([{ marker: SUMMARY_MARKER, kind: 'summary', fingerprint: null }]);
  try {
    const created = await input.publisher.createThread(
      { body, revision, marker: SUMMARY_MARKER },
      { signal: input.signal },
    );
    await input.ledger.markPosted(SUMMARY_MARKER, { threadId: created.threadId, commentId: created.commentId });
    pass.event({
      kind: 'call',
      name: 'summary.created',
      eventCategory: 'publication',
      body: { threadId: created.threadId },
    });
    return { posted: 1, failed: 0 };
  } catch (error) {
    if (input.signal.aborted) throw error;
    await input.ledger.markFailed(SUMMARY_MARKER, messageOf(error));
    pass.event({
      kind: 'failure',
      name: 'summary.refused',
      eventCategory: 'publication',
      body: { message: messageOf(error) },
    });
    return { posted: 0, failed: 1 };
  }
}
