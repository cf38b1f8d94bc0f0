import { MarginError } from '../kernel/index.js';
import { isCapabilityAvailable } from '../licensing/index.js';
import { announceQueued, pullRequestKey, type ReviewRequest, requestReview } from '../reviewing/index.js';
import { type OpenedScmScope, scopeWithConnection } from '../scm/index.js';
import type { PullRequestRef, PullRequestSnapshot, ReviewThread } from '../scm-provider/index.js';
import { budgetAdmission, type UsageEventRecord } from '../spend/index.js';
import { answerQuestion } from './answer-question.js';
import type { ConversationFinish, ConversationOutcome, ConversationRecord } from './conversation-record.js';
import type { ConversationsDeps } from './conversations-deps.js';

/** Tries per conversation (provider outages, lost workers) before it is settled as failed. */
export const MAX_CONVERSATION_ATTEMPTS = 3;
/** The block a `pause` places; `resume` lifts only blocks of this form, never an administrator's. */
export const PAUSE_REASON_PREFIX = 'paused by ';
const MAX_QUOTE = 300;
const MAX_THREADS_READ = 500;

export const HELP_TEXT = [
  'Mention me with one of these commands, or ask a question about this pull request:',
  '',
  '- `review`: review the current head of this pull request now',
  '- `pause`: stop automatic reviews of this pull request',
  '- `resume`: start automatic reviews of this pull request again',
  '- `help`: this list',
].join('\n');

interface Settled {
  answer: string;
  outcome: ConversationOutcome;
  jobId?: string | null;
  usageEvent?: UsageEventRecord;
  usage?: ConversationFinish['usage'];
}

/**
 * One round of the conversation worker: leases queued conversations (two hosts never take the same
 * one), handles each and settles it. Returns how many were taken.
 */
export async function processQueuedConversations(
  deps: ConversationsDeps,
  request: { owner: string; leaseMs: number; limit: number },
): Promise<number> {
  const now = deps.clock.now().toISOString();
  const claimed = await deps.storage.conversations.claimQueued({ ...request, now });
  for (const conversation of claimed) await handleConversation(deps, conversation, request.owner);
  return claimed.length;
}

async function handleConversation(deps: ConversationsDeps, c: ConversationRecord, owner: string): Promise<void> {
  const finish = async (settled: Settled) => {
    const record: ConversationFinish = {
      answer: settled.answer || null,
      outcome: settled.outcome,
      jobId: settled.jobId ?? null,
      usage: settled.usage ?? null,
      handledAt: deps.clock.now().toISOString(),
    };
    await deps.storage.transaction(async (tx) => {
      // The ledger event lands only with the settlement that owns it.
      if ((await tx.conversations.finish(c.id, owner, record)) && settled.usageEvent) {
        await tx.usageEvents.record([settled.usageEvent]);
      }
    });
  };

  let opened: OpenedScmScope;
  let ref: PullRequestRef;
  let pr: PullRequestSnapshot;
  try {
    opened = await scopeWithConnection(deps, c.clientId, c.organizationScopeId);
    ref = {
      scopePath: opened.scope.scopePath,
      projectKey: c.providerProjectKey,
      repositoryId: c.repositoryId,
      pullRequestId: c.pullRequestId,
    };
    pr = await opened.provider.getPullRequest(ref);
  } catch (error) {
    // Without the provider nothing can be said back: try again later, then give up quietly.
    if (c.attempts < MAX_CONVERSATION_ATTEMPTS && !isPermanent(error)) return;
    await finish({ answer: '', outcome: 'failed' });
    return;
  }

  let settled: Settled;
  try {
    settled = await decide(deps, c, opened, ref, pr);
  } catch (error) {
    if (c.attempts < MAX_CONVERSATION_ATTEMPTS && !isPermanent(error)) return;
    settled = {
      answer: 'Margin could not handle this request; an administrator can find it in the console.',
      outcome: 'failed',
    };
  }
  try {
    await post(opened, ref, pr, c, settled.answer);
  } catch (error) {
    // Nothing done that cannot be done again (no job queued, no model paid for): try again later.
    // Otherwise the conversation keeps what happened; only the reply is lost.
    if (c.attempts < MAX_CONVERSATION_ATTEMPTS && !isPermanent(error) && !settled.usageEvent && !settled.jobId) return;
  }
  await finish(settled);
}

function isPermanent(error: unknown): boolean {
  return (
    MarginError.isInstance(error) && ['not_found', 'validation_failed', 'forbidden', 'conflict'].includes(error.code)
  );
}

async function decide(
  deps: ConversationsDeps,
  c: ConversationRecord,
  opened: OpenedScmScope,
  ref: PullRequestRef,
  pr: PullRequestSnapshot,
): Promise<Settled> {
  switch (c.command) {
    case 'help':
      return { answer: HELP_TEXT, outcome: 'answered' };
    case 'review':
      return review(deps, c, opened, pr);
    case 'pause':
      return pause(deps, c);
    case 'resume':
      return resume(deps, c);
    default:
      return question(deps, c, opened, ref, pr);
  }
}

async function review(
  deps: ConversationsDeps,
  c: ConversationRecord,
  opened: OpenedScmScope,
  pr: PullRequestSnapshot,
): Promise<Settled> {
  if (pr.status !== 'open')
    return { answer: `This pull request is ${pr.status}; there is nothing to review.`, outcome: 'refused' };
  const request = await deps.origins.reviewRequestFor(c, opened, pr);
  if (!request) {
    return { answer: 'The configuration that covers this pull request no longer exists.', outcome: 'refused' };
  }
  const result = await requestReview(deps, request);
  if (!('refused' in result)) {
    announceQueued(deps, result.queued);
    const head = pr.revision.headSha.slice(0, 7);
    return {
      answer: `Queued a review of \`${head}\`: job \`${result.queued.id}\`.`,
      outcome: 'queuedReview',
      jobId: result.queued.id,
    };
  }
  switch (result.refused) {
    case 'blocked':
      return {
        answer: `Reviews of this pull request are blocked (${result.reason}); nothing was queued.`,
        outcome: 'refused',
      };
    case 'duplicateActiveJob':
      return {
        answer: `A review of this revision is already queued or running: job \`${result.jobId}\`.`,
        outcome: 'refused',
        jobId: result.jobId,
      };
    case 'oneAtATime':
      return {
        answer: `Another review is queued or running; ask again when it is done. (${result.message})`,
        outcome: 'refused',
      };
    default:
      return { answer: 'This revision was already reviewed.', outcome: 'refused' };
  }
}

async function pause(deps: ConversationsDeps, c: ConversationRecord): Promise<Settled> {
  const reason = `${PAUSE_REASON_PREFIX}${c.author.login}`.slice(0, 500);
  const block = await deps.storage.blockedPullRequests.put({
    id: deps.ids.uuid(),
    clientId: c.clientId,
    providerScopePath: c.providerScopePath,
    providerProjectKey: c.providerProjectKey,
    repositoryId: c.repositoryId,
    pullRequestId: c.pullRequestId,
    reason,
    blockedByUserId: null,
    blockedAt: deps.clock.now().toISOString(),
  });
  if (!block.reason.startsWith(PAUSE_REASON_PREFIX)) {
    return { answer: `Reviews of this pull request are already blocked (${block.reason}).`, outcome: 'refused' };
  }
  return {
    answer: 'Automatic reviews of this pull request are paused. Mention me with `resume` to start them again.',
    outcome: 'paused',
  };
}

async function resume(deps: ConversationsDeps, c: ConversationRecord): Promise<Settled> {
  const block = await deps.storage.blockedPullRequests.find(c.clientId, c.repositoryId, c.pullRequestId);
  if (!block) return { answer: 'Automatic reviews of this pull request are not paused.', outcome: 'refused' };
  // An administrator's block is the administrator's to lift, in the console.
  if (!block.reason.startsWith(PAUSE_REASON_PREFIX)) {
    return {
      answer: `Reviews of this pull request are blocked by an administrator (${block.reason}).`,
      outcome: 'refused',
    };
  }
  await deps.storage.blockedPullRequests.remove(c.clientId, c.repositoryId, c.pullRequestId);
  return { answer: 'Automatic reviews of this pull request are running again.', outcome: 'resumed' };
}

async function question(
  deps: ConversationsDeps,
  c: ConversationRecord,
  opened: OpenedScmScope,
  ref: PullRequestRef,
  pr: PullRequestSnapshot,
): Promise<Settled> {
  const client = await deps.storage.clients.findById(c.clientId);
  if (!client) throw MarginError.notFound('Client not found.');
  const request = await deps.origins.reviewRequestFor(c, opened, pr);
  const prKey = request ? keyOf(request) : null;
  if (await isCapabilityAvailable(deps, 'budgeting')) {
    // Only the hold is read: an answer is one short call, not a review sharing the caps.
    const admission = await budgetAdmission(deps, { id: c.id, clientId: c.clientId, pullRequestKey: prKey ?? '' });
    if (admission.heldReason) {
      return {
        answer: 'The review budget for this period is used up, so this question was not sent to a model.',
        outcome: 'refused',
      };
    }
  }
  const thread = c.providerThreadId ? await findThread(opened, ref, c.providerThreadId) : undefined;
  const answered = await answerQuestion(deps, c, pr, thread, {
    tenantId: client.tenantId,
    pullRequestKey: prKey,
    repository: request?.repository.projectPath ?? (pr.repositoryName || null),
  });
  return { answer: answered.answer, outcome: 'answered', usage: answered.usage, usageEvent: answered.event };
}

function keyOf(r: ReviewRequest): string {
  return pullRequestKey(r.clientId, r.provider, r.hostBaseUrl, r.repository, r.codeReview);
}

async function findThread(
  opened: OpenedScmScope,
  ref: PullRequestRef,
  threadId: string,
): Promise<ReviewThread | undefined> {
  let seen = 0;
  for await (const thread of opened.provider.listThreads(ref)) {
    if (thread.threadId === threadId) return thread;
    if (++seen >= MAX_THREADS_READ) break;
  }
  return undefined;
}

/**
 * The reply goes into the comment's thread; a comment without one gets a new pull-request comment
 * that opens by quoting it (the quote holds the mention, and quoted mentions are never answered).
 */
async function post(
  opened: OpenedScmScope,
  ref: PullRequestRef,
  pr: PullRequestSnapshot,
  c: ConversationRecord,
  answer: string,
): Promise<void> {
  if (!answer) return;
  if (c.providerThreadId) {
    await opened.provider.reply(ref, c.providerThreadId, answer);
    return;
  }
  const asked = (c.question ?? c.command ?? '').slice(0, MAX_QUOTE);
  const quote = asked
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
  await opened.provider.createThread(ref, {
    body: `${quote}\n\n${answer}`,
    revision: pr.revision,
    marker: `conversation:${c.id}`,
  });
}
