import { MarginError } from '../kernel/index.js';
import type { ProtocolWriter, ReviewOutcome, ReviewScm } from '../review-engine/index.js';
import type { CommitStatusState, Revision } from '../scm-provider/index.js';
import type { ReviewJobRecord } from './job-record.js';

/** The name the status carries on every provider; a later status of the same name replaces the earlier one. */
export const COMMIT_STATUS_NAME = 'Margin review';

/** Where the protocol records what happened to the status (a warning, never a failed job). */
export const COMMIT_STATUS_EVENT = {
  stage: 'operational',
  refused: 'providerStatus.refused',
  failed: 'providerStatus.failed',
  unsupported: 'providerStatus.unsupported',
  eventCategory: 'publication',
} as const;

/** `MARGIN_PROVIDER_STATUS` and `MARGIN_PUBLIC_BASE_URL`, as the host passes them to core. */
export interface ProviderStatusSettings {
  /** False: no status is set on any provider. Default true. */
  enabled: boolean;
  /** Where the console is served; the status links the job's page under it. Without it, no link. */
  publicBaseUrl?: string | undefined;
}

export const DEFAULT_PROVIDER_STATUS: ProviderStatusSettings = Object.freeze({ enabled: true });

/** How a run ended, as the status reports it. */
export type StatusEnding = Pick<ReviewOutcome, 'status' | 'reason'> & { result?: unknown };

export interface CommitStatusReporter {
  /**
   * Sets the pending status on the head the job reviews, beside the review rather than before it: a
   * slow provider never delays the review, and `finished` waits for it.
   */
  started(): void;
  /** Sets the final status on the head the pending one went on (or the head the engine reviewed). */
  finished(ending: StatusEnding): Promise<void>;
}

/**
 * The job's status on the provider: pending while it runs, then success with the counts, or
 * failure/error with the reason. A status is a courtesy to the people on the pull request: a refusal
 * (a token without the right, 403/404) or any other failure to set it is a protocol warning and
 * never touches the job's outcome, so nothing here throws.
 */
export function commitStatusReporter(
  settings: ProviderStatusSettings,
  job: ReviewJobRecord,
  run: { scm(): Promise<ReviewScm>; protocol: ProtocolWriter; signal: AbortSignal },
): CommitStatusReporter {
  let revision: Revision | undefined;
  let pending: Promise<void> | undefined;
  let warned = false;
  const targetUrl = settings.publicBaseUrl ? jobPageUrl(settings.publicBaseUrl, job) : undefined;

  const warn = async (name: string, body: Record<string, unknown>) => {
    // One warning per run is enough: the second status fails for the same reason as the first.
    if (warned) return;
    warned = true;
    const pass = await run.protocol.pass(COMMIT_STATUS_EVENT.stage, 'Status on the provider');
    pass.event({ kind: 'warning', name, eventCategory: COMMIT_STATUS_EVENT.eventCategory, body });
    await pass.complete('succeeded');
  };

  const set = async (state: CommitStatusState, description: string, on: Revision | undefined) => {
    let scm: ReviewScm;
    try {
      scm = await run.scm();
    } catch {
      // No connection to reach the pull request: the engine fails the job saying so.
      return;
    }
    const setCommitStatus = scm.provider.setCommitStatus?.bind(scm.provider);
    if (!setCommitStatus) {
      await warn(COMMIT_STATUS_EVENT.unsupported, {
        message: `The ${scm.provider.family} adapter cannot set a status on the pull request.`,
      });
      return;
    }
    try {
      revision = on ?? revision ?? (await headRevision(job, scm, run.signal));
      await setCommitStatus(
        scm.pullRequest,
        { name: COMMIT_STATUS_NAME, state, description, targetUrl, revision },
        { signal: run.signal },
      );
    } catch (error) {
      if (run.signal.aborted) return;
      const providerStatus = MarginError.isInstance(error) ? error.details.providerStatus : undefined;
      const refused = providerStatus === 403 || providerStatus === 404;
      await warn(refused ? COMMIT_STATUS_EVENT.refused : COMMIT_STATUS_EVENT.failed, {
        state,
        ...(providerStatus !== undefined ? { providerStatus } : {}),
        message: refused
          ? `The provider refused the review status (${providerStatus}); give the connection's token the right to set statuses, or set MARGIN_PROVIDER_STATUS=false. ${messageOf(error)}`
          : messageOf(error),
      });
    }
  };

  return {
    started() {
      if (!settings.enabled) return;
      pending = set('pending', 'Reviewing the changes', undefined);
    },
    async finished(ending) {
      await pending;
      // Only a run that set a pending status ends one: a status is never left pending by us.
      if (!settings.enabled || !revision) return;
      const { state, description } = finalStatus(ending);
      await set(state, description, reviewedRevision(ending.result, revision));
    },
  };
}

/** The console's page of one job (packages/console: `/clients/:clientId/reviews/:jobId`). */
export function jobPageUrl(publicBaseUrl: string, job: Pick<ReviewJobRecord, 'id' | 'clientId'>): string {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return `${base}/clients/${encodeURIComponent(job.clientId)}/reviews/${encodeURIComponent(job.id)}`;
}

/** `success` with the counts for a completed review, `failure` for a failed one, `error` for every other end. */
export function finalStatus(ending: StatusEnding): { state: CommitStatusState; description: string } {
  if (ending.status === 'completed') return { state: 'success', description: findingCounts(ending.result) };
  const reason = ending.reason?.trim() || 'The review did not complete.';
  return { state: ending.status === 'failed' ? 'failure' : 'error', description: reason };
}

const SEVERITY_ORDER = ['error', 'warning', 'suggestion', 'info'] as const;

/** "3 findings: 1 error, 2 warnings" over what the review posted (inline or in the summary). */
export function findingCounts(result: unknown): string {
  const findings = (result as { findings?: unknown } | null | undefined)?.findings;
  const shown = (Array.isArray(findings) ? findings : []).filter((f: { publication?: string }) =>
    ['published', 'summaryOnly'].includes(f?.publication ?? ''),
  ) as Array<{ severity?: string }>;
  if (shown.length === 0) return 'No findings';
  const parts = SEVERITY_ORDER.map((severity) => {
    const n = shown.filter((f) => f.severity === severity).length;
    return n === 0 ? undefined : `${n} ${severity}${n === 1 || severity === 'info' ? '' : 's'}`;
  }).filter(Boolean);
  return `${shown.length} finding${shown.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/** The head the job names, else the pull request's newest. */
async function headRevision(job: ReviewJobRecord, scm: ReviewScm, signal: AbortSignal): Promise<Revision> {
  const named = job.reviewRevision;
  if (named) {
    return { revisionId: named.providerRevisionId ?? named.headSha, headSha: named.headSha, baseSha: named.baseSha };
  }
  return (await scm.provider.getPullRequest(scm.pullRequest, { signal })).revision;
}

/** The engine reviewed a newer head than the pending status went on (a push landed first): the final one goes there. */
function reviewedRevision(result: unknown, pending: Revision): Revision {
  const reviewed = (result as { reviewedRevision?: { headSha?: unknown; baseSha?: unknown } } | null | undefined)
    ?.reviewedRevision;
  if (typeof reviewed?.headSha !== 'string' || reviewed.headSha === pending.headSha) return pending;
  return {
    revisionId: reviewed.headSha,
    headSha: reviewed.headSha,
    baseSha: typeof reviewed.baseSha === 'string' ? reviewed.baseSha : pending.baseSha,
  };
}

function messageOf(error: unknown): string {
  return MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The call failed.';
}
