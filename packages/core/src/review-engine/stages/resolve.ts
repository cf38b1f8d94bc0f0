import type { PullRequestSnapshot, Revision } from '../../scm-provider/index.js';
import { RESOLVED_HEAD_EVENT } from '../protocol/vocabulary.js';
import { type Ended, endedRun, type RunContext } from './run-context.js';

/** What resolve read: the pull request, open and at the revision the job names. */
export interface Resolved {
  pr: PullRequestSnapshot;
  revision: Revision;
}

/**
 * Stage 1, resolve: reads the pull request and its revision. Closed, merged or blocked ends the run
 * `cancelled`; a head that moved past the revision the job names ends it `superseded`.
 */
export async function resolve(ctx: RunContext): Promise<Resolved | Ended> {
  const { input } = ctx;
  // Submissions read the head a running review recorded here (RESOLVED_HEAD_EVENT).
  const pass = await ctx.protocol.pass(RESOLVED_HEAD_EVENT.stage, 'Read the pull request');
  const pr = await ctx.source.getPullRequest({ signal: ctx.signal });
  pass.event({
    kind: 'call',
    name: RESOLVED_HEAD_EVENT.name,
    eventCategory: RESOLVED_HEAD_EVENT.eventCategory,
    body: {
      status: pr.status,
      isDraft: pr.isDraft,
      headSha: pr.revision.headSha,
      baseSha: pr.revision.baseSha,
      targetBranch: pr.targetBranch,
    },
  });
  const blocked = await input.blockedReason?.();
  const stop =
    pr.status !== 'open'
      ? endedRun(ctx, 'cancelled', `The pull request is ${pr.status}.`, pr)
      : blocked
        ? endedRun(ctx, 'cancelled', `The pull request is blocked: ${blocked}`, pr)
        : input.revision && input.revision.headSha.toLowerCase() !== pr.revision.headSha.toLowerCase()
          ? endedRun(
              ctx,
              'superseded',
              `The pull request moved on to ${pr.revision.headSha.slice(0, 12)} after this job was queued for ${input.revision.headSha.slice(0, 12)}; the newer revision is reviewed by its own job.`,
              pr,
            )
          : undefined;
  if (stop) {
    pass.event({
      kind: 'decision',
      name: `job.${stop.status}`,
      eventCategory: 'operational',
      body: { reason: stop.reason },
    });
    await pass.complete('succeeded');
    return { ended: stop };
  }
  await pass.complete('succeeded');
  return { pr, revision: pr.revision };
}
