import type { EngineFinding } from '../engine-finding.js';
import type { FindingStore, KnownFinding } from '../memory/review-memory.js';
import type { ReviewRun } from '../pipeline/review-run.js';

/**
 * What the finding store learns from a published run: findings posted for the first time are
 * remembered `open`; those seen again move their last-seen revision on; reopened ones get their new
 * thread; resolved, superseded and people-dismissed ones change state. A finding that was posted
 * by an earlier job that never finished (known only by its marker) is remembered now.
 */
export async function rememberFindings(
  run: ReviewRun,
  store: FindingStore,
  posted: ReadonlyMap<EngineFinding, { threadId: string; marker: string }>,
): Promise<{ inserted: number; updated: number }> {
  const head = run.revision?.headSha ?? '';
  const { identity } = run;
  const inserted: KnownFinding[] = [];
  const updated = new Map<string, KnownFinding>();
  const update = (k: KnownFinding) => updated.set(k.id, k);

  for (const f of run.findings) {
    const match = identity.matches.get(f);
    const thread = posted.get(f);
    if (match?.outcome === 'seen') {
      const before = updated.get(match.known.id) ?? match.known;
      update({ ...before, lastSeenRevision: head, citations: f.citations?.length ? f.citations : before.citations });
    } else if (match?.outcome === 'reopen' && thread) {
      update({
        ...match.known,
        state: 'reopened',
        reopenCount: match.known.reopenCount + 1,
        providerThreadId: thread.threadId,
        marker: thread.marker,
        resolvedAtRevision: null,
        lastSeenRevision: head,
        startLine: f.anchor?.startLine ?? null,
        endLine: f.anchor?.endLine ?? null,
        citations: f.citations ?? [],
      });
    } else if (!f.places && !match && (thread || (f.reason === 'alreadyReported' && f.providerThreadId))) {
      // A root cause consolidated across files is not one file's finding: its marker alone keeps it
      // from being posted twice.
      inserted.push(known(f, head, thread?.threadId ?? f.providerThreadId ?? null, thread?.marker ?? null));
    }
  }
  for (const k of identity.settled.resolved) update({ ...k, state: 'resolved', resolvedAtRevision: head });
  for (const k of identity.settled.superseded) update({ ...k, state: 'superseded' });
  for (const k of identity.dismissedByPeople) update({ ...k, state: 'dismissed' });
  if (inserted.length > 0 || updated.size > 0) await store.save({ inserted, updated: [...updated.values()] });
  return { inserted: inserted.length, updated: updated.size };
}

function known(f: EngineFinding, head: string, threadId: string | null, marker: string | null): KnownFinding {
  const keys = f.keys ?? { locKey: f.id, fingerprint: f.id, identifiers: [], words: [] };
  return {
    id: f.id,
    fingerprint: keys.fingerprint,
    locKey: keys.locKey,
    path: f.anchor?.path ?? f.path ?? '',
    anchorText: f.anchor?.anchorText ?? '',
    enclosingSymbol: f.enclosingSymbol,
    identifiers: keys.identifiers,
    words: keys.words,
    category: f.category,
    severity: f.severity,
    title: f.title,
    message: f.message,
    startLine: f.anchor?.startLine ?? null,
    endLine: f.anchor?.endLine ?? null,
    side: f.anchor?.side ?? 'new',
    state: 'open',
    firstSeenRevision: head,
    lastSeenRevision: head,
    resolvedAtRevision: null,
    providerThreadId: threadId,
    marker,
    reopenCount: 0,
    citations: f.citations ?? [],
  };
}
