import type { CoverageManifest } from '../coverage.js';
import { lifecycleOf, type ReviewIdentity, type ReviewRun } from '../pipeline/review-run.js';
import { renderSummary } from '../summary/summary.js';
import type { Filtered } from './filter.js';
import type { Reviewed } from './review.js';
import type { RunContext } from './run-context.js';

/**
 * Stage 6, summarize: the pull-request summary, naming only findings that survived, and the run's
 * result. (Publishing writes it again after the posts, with their outcome.)
 */
export async function summarize(
  ctx: RunContext,
  run: Filtered,
  { identity, coverage }: { identity: ReviewIdentity; coverage: CoverageManifest },
): Promise<ReviewRun> {
  const { findings, revision } = run;
  const pass = await ctx.protocol.pass('summarize', 'Write the summary');
  const summary = renderSummary({ headSha: revision.headSha, findings, coverage, lifecycle: lifecycleOf(identity) });
  pass.event({
    kind: 'decision',
    name: 'summary.written',
    eventCategory: 'publication',
    body: {
      published: findings.filter((f) => f.publication === 'published').length,
      summaryOnly: findings.filter((f) => f.publication === 'summaryOnly').length,
      coverage: coverage.counts,
    },
  });
  await pass.complete('succeeded');
  return {
    status: 'reviewed',
    pullRequest: run.pr,
    revision,
    findings,
    coverage,
    summary,
    usage: ctx.ledger.toJobUsage(),
    threads: run.threads,
    ledger: run.publications,
    allFailed: allChunksFailed(run),
    identity,
  };
}

/** Chunks were sent, some failed, and no file sent to a model came back reviewed. */
function allChunksFailed(run: Reviewed): boolean {
  const { chunks, chunksLeft, prepared } = run;
  const allFailed =
    chunks.length > 0 && prepared.planned.every((p) => p.coverage.state === 'reviewFailed' || !chunksLeft.has(p.id));
  return allFailed && run.failedChunks.length > 0;
}
