import { stoppedReason } from './budget/budget-reasons.js';
import { checkSpendCaps, type SpendCaps } from './budget/spend-caps.js';
import { publishReview } from './pipeline/publish-review.js';
import { lifecycleOf } from './pipeline/review-run.js';
import type { ReviewSettings } from './pipeline/review-settings.js';
import { scmReviewSource } from './pipeline/review-source.js';
import { runReview } from './pipeline/run-review.js';
import { resultView } from './result-view.js';
import type { ReviewEngineV1 } from './review-engine-v1.js';
import { everyChunkFailed } from './review-failure.js';
import { checkThoroughSettings } from './thorough/thorough-settings.js';

export interface ReviewEngineOptions {
  settings?: Partial<ReviewSettings> | undefined;
}

/**
 * Margin's review engine for the service: reviews the job's pull request through its connection's
 * provider, publishes the threads and the summary, and returns the result, coverage and usage the
 * worker stores. Jobs whose every chunk failed fail, saying so; "no comments" never hides "we failed".
 * The settings' spend caps bind the jobs whose context says they apply (the `budgeting` capability):
 * a review the hard cap stopped is published as far as it got and ends `budgetExceeded`. Wrong
 * thorough-mode settings stop the host at its start, as wrong caps do.
 */
export function createReviewEngine(options: ReviewEngineOptions = {}): ReviewEngineV1 {
  // A wrong cap stops the host at its start, not at its first review.
  const spendCaps = checkSpendCaps(options.settings?.spendCaps);
  checkThoroughSettings(options.settings?.thorough);
  return {
    specificationVersion: 'v1',
    async review(job, ctx) {
      const scm = await ctx.scm();
      const bound = scmReviewSource(scm.provider, scm.pullRequest);
      const run = await runReview({
        jobId: job.id,
        source: bound,
        models: ctx.models,
        memory: ctx.memory,
        protocol: ctx.protocol,
        clock: ctx.clock,
        ids: ctx.ids,
        signal: ctx.signal,
        reportProgress: ctx.reportProgress,
        revision: job.reviewRevision,
        temperature: job.options.reviewTemperature,
        blockedReason: ctx.blockedReason,
        settings: { ...options.settings, spendCaps: ctx.spendCapsApply ? tighter(spendCaps, ctx.budgetCaps) : {} },
        sharedSpend: ctx.spendCapsApply ? ctx.sharedSpend : undefined,
        onModelCall: ctx.onModelCall,
      });
      if (run.status !== 'reviewed') {
        return {
          status: run.status,
          result: { summary: null, findings: [], coverage: run.coverage },
          usage: run.usage,
          reason: run.reason,
        };
      }
      if (run.allFailed) {
        // Nothing is posted, but what was tried and what it cost stay on the job.
        return {
          status: 'failed',
          result: { summary: null, findings: [], coverage: run.coverage },
          usage: run.usage,
          reason: everyChunkFailed(run.coverage).message,
        };
      }
      const published = await publishReview(run, {
        jobId: job.id,
        findings: ctx.memory.findings,
        publisher: bound,
        ledger: ctx.memory.publications,
        protocol: ctx.protocol,
        signal: ctx.signal,
        hostBaseUrl: scm.hostBaseUrl,
        onPublished: (finding) =>
          ctx.events.emit('finding.published', {
            jobId: job.id,
            findingId: finding.id,
            providerThreadId: finding.providerThreadId ?? '',
          }),
      });
      const stopped = run.coverage.budget?.stopped;
      return {
        status: stopped ? 'budgetExceeded' : 'completed',
        result: {
          ...resultView(run.summary, run.findings, run.coverage),
          // What the next review of this pull request builds on.
          reviewedRevision: { headSha: run.revision?.headSha, baseSha: run.revision?.baseSha },
          lifecycle: { ...lifecycleOf(run.identity), resolved: published.resolved },
        },
        usage: run.usage,
        ...(stopped && run.coverage.budget ? { reason: stoppedReason(run.coverage.budget, stopped) } : {}),
      };
    },
  };
}

/** Each cap the lower of the installation's and the client budget's, the soft one never above the hard one. */
function tighter(installation: SpendCaps, budget: SpendCaps | undefined): SpendCaps {
  const min = (a: number | undefined, b: number | undefined) =>
    a === undefined ? b : b === undefined ? a : Math.min(a, b);
  const hardUsd = min(installation.hardUsd, budget?.hardUsd);
  const softUsd = min(installation.softUsd, budget?.softUsd);
  return { softUsd: softUsd === undefined || hardUsd === undefined ? softUsd : Math.min(softUsd, hardUsd), hardUsd };
}
