import { MarginError } from '../../kernel/index.js';
import type { ReviewThread } from '../../scm-provider/index.js';
import { postFindings } from '../publish/post-findings.js';
import { postSummary } from '../publish/post-summary.js';
import type { PublishInput, PublishOutcome } from '../publish/publish-input.js';
import { rememberFindings } from '../publish/remember-findings.js';
import { resolveFixed } from '../publish/resolve-fixed.js';
import type { ReviewRun } from './review-run.js';

export type { PublishInput, PublishOutcome } from '../publish/publish-input.js';

/**
 * Posts the inline threads in one batch and the summary once per pull request (edited in place on
 * later runs), through the outbox: every post is reserved before it is sent and recorded after, each
 * with its hidden marker. A retry of the same job first looks for its markers on the provider, so
 * a crash between "posted" and "recorded" never posts twice. One refused comment does not fail the
 * others; a run whose every post is refused fails. Then the threads of fixed findings are resolved
 * and the store remembers what this run found (`publish/` holds each part).
 */
export async function publishReview(run: ReviewRun, input: PublishInput): Promise<PublishOutcome> {
  const revision = run.revision;
  if (!revision) throw MarginError.internal('Nothing to publish: the review did not run.');
  const pass = await input.protocol.pass('publish', 'Publish threads and the summary');
  const onProvider = new Map<string, ReviewThread>();
  for (const thread of run.threads) if (thread.marker) onProvider.set(thread.marker, thread);
  const scene = { pass, onProvider, revision };
  const findings = await postFindings(run, input, scene);
  const resolved = await resolveFixed(run, input, pass);
  // The summary names the outcome of the posts, so it is written after them.
  const summary = await postSummary(run, input, scene);
  if (input.findings) {
    const remembered = await rememberFindings(run, input.findings, findings.threads);
    pass.event({ kind: 'decision', name: 'findings.remembered', eventCategory: 'memory', body: remembered });
  }
  const posted = findings.posted + summary.posted;
  const failed = findings.failed + summary.failed;
  await pass.complete(failed > 0 && posted === 0 ? 'failed' : 'succeeded');
  if (posted === 0 && failed > 0) {
    throw MarginError.provider(
      'rejected',
      `The provider refused every comment of this review (${failed}); see the protocol for each refusal.`,
    );
  }
  return { posted, failed, resolved };
}
