import { MarginError } from '../../kernel/index.js';
import type { ThreadComment } from '../../scm-provider/index.js';
import { nonceFrom } from '../hostile/fence.js';
import {
  anchoredCodeChanged,
  closureOf,
  decisionOf,
  type OurThread,
  ourThreads,
  resolvedByMargin,
} from '../memory/learn-from-threads.js';
import { classifyReplies, type MemoryModelEnv, memoryModel } from '../memory/memory-model.js';
import { replyRejects } from '../memory/reply-classifier.js';
import type { LearnedDecision } from '../memory/thread-memory.js';
import { settleKnown } from '../pipeline/finding-lifecycle.js';
import type { ReviewIdentity } from '../pipeline/review-run.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { Collected } from './collect.js';
import type { Filtered } from './filter.js';
import type { RunContext } from './run-context.js';

/**
 * What became of the findings earlier reviews posted: matched again by this run, resolved (their
 * file fully reviewed and their lines gone), superseded (their file left the change) or still open.
 * Recorded as a `memory` pass when there were any.
 */
export async function settleEarlierFindings(ctx: RunContext, run: Filtered): Promise<ReviewIdentity> {
  const { known, matches } = run;
  const stillChanged = new Set(
    run.files.flatMap((f) => [f.path.toLowerCase(), ...(f.previousPath ? [f.previousPath.toLowerCase()] : [])]),
  );
  const reviewedPaths = new Set(
    run.prepared.coverage
      .filter((c) => c.state === 'reviewed')
      .flatMap((c) => [c.path.toLowerCase(), ...(c.previousPath ? [c.previousPath.toLowerCase()] : [])]),
  );
  const settled = settleKnown({
    known,
    matches,
    changedPaths: stillChanged,
    fullyReviewed: (path) => reviewedPaths.has(path),
    gone: run.gone,
  });
  if (known.length > 0) {
    const pass = await ctx.protocol.pass('memory', 'Findings of earlier reviews');
    for (const [f, m] of matches) {
      pass.event({
        kind: 'decision',
        name: `known.${m.outcome}`,
        eventCategory: 'memory',
        body: { findingId: f.id, knownFindingId: m.known.id },
      });
    }
    for (const [what, list] of Object.entries(settled)) {
      for (const k of list)
        pass.event({
          kind: 'decision',
          name: `known.${what}`,
          eventCategory: 'memory',
          body: { knownFindingId: k.id, path: k.path },
        });
    }
    await pass.complete('succeeded');
  }
  return { known, dismissedByPeople: run.dismissedByPeople, matches, settled };
}

/** Replies put to the `memoryReconsideration` model in one run, at most. */
const MAX_REPLIES_ASKED = 20;

/**
 * Reads what people decided on Margin's threads of this pull request and keeps it as thread memory:
 * closed won't-fix or by design → `rejected`; resolved by a person → `claimsFix` when the anchored
 * code changed, else `acceptedByHuman`; a reply rejecting the finding → `replyRejected`. Reopening a
 * resolved thread forgets it. Then every decision of the repository is retrieved for the run.
 * Without a memory port (a review without a database) nothing is read or kept. The pass is written
 * only when there are threads of Margin's or decisions to read.
 */
export async function learnFromThreads<T extends Collected>(ctx: RunContext, run: T): Promise<T> {
  const port = ctx.input.memory.threadMemory;
  if (!port) return run;
  const remembered = await port.list();
  const threads = ourThreads(run.threads, run.known, remembered);
  // Nothing to learn and nothing to retrieve: no pass, as for a first review in a new repository.
  if (threads.length === 0 && remembered.length === 0) return run;
  const pass = await ctx.protocol.pass('memory', 'Thread memory');
  const rejecting = await rejectingReplies(ctx, threads, pass);
  const wanted: Array<Omit<LearnedDecision, 'embedding'>> = [];
  const forgotten: OurThread[] = [];
  for (const t of threads) {
    const closure = closureOf(t);
    if (closure === 'rejected') {
      if (t.remembered?.intent !== 'rejected') wanted.push(decisionOf(t, { kind: 'rejected' }));
    } else if (closure === 'resolved') {
      // Already remembered (a rejection in a reply outweighs the resolution that followed it), or
      // resolved by Margin itself because the code changed: nothing new to learn.
      if (t.remembered || resolvedByMargin(t, run.publications)) continue;
      const headText = t.filePath ? await headFile(ctx, t.filePath, run.revision.headSha) : undefined;
      wanted.push(decisionOf(t, { kind: 'resolved', codeChanged: anchoredCodeChanged(t, headText) }));
    } else {
      const by = rejecting.get(t.thread.threadId);
      if (by) wanted.push(decisionOf(t, { kind: 'replyRejected', by }));
      else if (t.remembered?.source === 'threadResolved') forgotten.push(t);
    }
  }
  const vectors = await embedDecisions(ctx, wanted, pass);
  for (const [i, w] of wanted.entries()) {
    const stored = await port.remember({ ...w, embedding: vectors?.[i] ?? null });
    pass.event({
      kind: 'decision',
      name: 'memory.stored',
      eventCategory: 'memory',
      body: { memoryId: stored.id, threadId: w.providerThreadId, source: w.source, intent: w.intent },
    });
  }
  for (const t of forgotten) {
    if (await port.forget(t.thread.threadId)) {
      pass.event({
        kind: 'decision',
        name: 'memory.removed',
        eventCategory: 'memory',
        body: { memoryId: t.remembered?.id, threadId: t.thread.threadId, reason: 'reopened' },
      });
    }
  }
  const all = wanted.length + forgotten.length > 0 ? await port.list() : remembered;
  const pastDecisions = all.filter((d) => !d.forgotten);
  pass.event({
    kind: 'decision',
    name: 'memory.retrieved',
    eventCategory: 'memory',
    body: { decisions: pastDecisions.length, ourThreads: threads.length },
  });
  await pass.complete('succeeded');
  return { ...run, pastDecisions };
}

/**
 * The first reply per open thread that rejects its finding: asked of the `memoryReconsideration`
 * model when it is mapped, else (or when its answer is unusable) read from the words.
 */
async function rejectingReplies(
  ctx: RunContext,
  threads: readonly OurThread[],
  pass: ProtocolPass,
): Promise<Map<string, ThreadComment>> {
  const open = threads.filter((t) => !closureOf(t) && t.replies.length > 0 && t.remembered?.source !== 'replyRejected');
  const found = new Map<string, ThreadComment>();
  if (open.length === 0) return found;
  const model = await memoryModel(ctx.input.models);
  if (model) {
    const asked = new Map<string, { thread: OurThread; reply: ThreadComment }>();
    for (const t of open) {
      for (const reply of t.replies) {
        if (asked.size < MAX_REPLIES_ASKED) asked.set(`R${asked.size + 1}`, { thread: t, reply });
      }
    }
    const answers = await classifyReplies(
      model,
      new Map([...asked].map(([id, a]) => [id, { finding: a.thread.summary, reply: a.reply.body }])),
      memoryEnv(ctx),
      pass,
    );
    if (answers) {
      for (const [id, a] of asked) {
        const rejects = answers.get(id) === true;
        pass.event({
          kind: 'decision',
          name: 'memory.replyClassified',
          eventCategory: 'memory',
          body: { threadId: a.thread.thread.threadId, commentId: a.reply.commentId, rejects, by: 'model' },
        });
        if (rejects && !found.has(a.thread.thread.threadId)) found.set(a.thread.thread.threadId, a.reply);
      }
      return found;
    }
  }
  for (const t of open) {
    const reply = t.replies.find((r) => replyRejects(r.body));
    if (!reply) continue;
    found.set(t.thread.threadId, reply);
    pass.event({
      kind: 'decision',
      name: 'memory.replyClassified',
      eventCategory: 'memory',
      body: { threadId: t.thread.threadId, commentId: reply.commentId, rejects: true, by: 'keywords' },
    });
  }
  return found;
}

/** What asking the `memoryReconsideration` model needs; before planning, the run has no nonce yet. */
function memoryEnv(ctx: RunContext, nonce = nonceFrom(ctx.input.ids.randomHex(8))): MemoryModelEnv {
  return { models: ctx.input.models, ledger: ctx.ledger, clock: ctx.input.clock, signal: ctx.signal, nonce };
}

async function headFile(ctx: RunContext, path: string, headSha: string): Promise<string | undefined> {
  try {
    return (await ctx.source.getFileContent(path, headSha, { signal: ctx.signal }))?.text;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return undefined;
  }
}

/** `path` and summary of each new decision by meaning, when `embeddingDefault` resolves; never fatal. */
async function embedDecisions(
  ctx: RunContext,
  wanted: ReadonlyArray<Omit<LearnedDecision, 'embedding'>>,
  pass: ProtocolPass,
): Promise<number[][] | undefined> {
  if (wanted.length === 0) return undefined;
  try {
    const model = await ctx.input.models.embeddings?.();
    if (!model) return undefined;
    const result = await model.model.embed(
      wanted.map((w) => `${w.filePath ?? ''}\n${w.summary}`),
      { signal: ctx.signal },
    );
    ctx.ledger.add(model, 'embeddingDefault', result.usage, ctx.input.clock.now().toISOString());
    return result.vectors;
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    pass.event({
      kind: 'warning',
      name: 'embed.failed',
      eventCategory: 'memory',
      body: { message: MarginError.isInstance(error) ? error.message : 'The embedding call failed.' },
    });
    return undefined;
  }
}
