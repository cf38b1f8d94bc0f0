import { dedupeFindings, type KnownMatch } from '../dedupe/dedupe.js';
import { demote, type EngineFinding } from '../engine-finding.js';
import { type GatePolicy, gateFindings } from '../gate/gate.js';
import { holdBackRemembered } from '../memory/hold-back-remembered.js';
import { embedForIdentity } from '../pipeline/embed-findings.js';
import { nearFocus } from '../pipeline/focus-ranges.js';
import type { PlannedFile } from '../pipeline/prepare-files.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { Reviewed } from './review.js';
import type { RunContext } from './run-context.js';

/** The findings deduplicated and gated, with how they match those earlier reviews posted. */
export interface Filtered extends Reviewed {
  matches: Map<EngineFinding, KnownMatch>;
}

/**
 * Stage 5, filter: in an incremental review, findings away from the lines changed since the last
 * review go to the summary; then identity (the same finding twice in this run, on an existing
 * thread, dismissed, or posted by an earlier review — by meaning too when `embeddingDefault` is
 * mapped), thread memory (what people rejected or accepted on this repository before) and the gate (floors, policies, budgets). Every decision is an event.
 */
export async function filter(ctx: RunContext, run: Reviewed): Promise<Filtered> {
  const { input, signal } = ctx;
  const pass = await ctx.protocol.pass('filter', 'Deduplicate and gate findings');
  gateOutsideFocus(run, pass);
  const vectors = await embedForIdentity({
    models: input.models,
    findings: run.findings,
    known: run.known,
    dismissals: run.dismissals,
    threads: run.threads,
    ledger: ctx.ledger,
    pass,
    clock: input.clock,
    signal,
  });
  const { threads, publications, dismissals, known } = run;
  const { created, matches } = dedupeFindings(
    run.findings,
    { jobId: input.jobId, threads, ledger: publications, dismissals, known, vectors },
    () => input.ids.uuid(),
    (f, detail) =>
      pass.event({
        kind: 'decision',
        name: 'finding.suppressed',
        eventCategory: 'duplicate-suppression',
        body: { findingId: f.id, reason: f.reason, ...detail },
      }),
  );
  run.findings.push(...created);
  await holdBackRemembered(
    run.findings,
    run.pastDecisions,
    vectors,
    {
      models: input.models,
      ledger: ctx.ledger,
      clock: input.clock,
      signal,
      nonce: run.nonce,
    },
    pass,
  );
  const policy: GatePolicy = {
    ...ctx.settings.gate,
    ...(run.config.minimumSeverity ? { minimumSeverity: run.config.minimumSeverity } : {}),
    ...(run.config.maxComments !== undefined ? { maxInlinePerPullRequest: run.config.maxComments } : {}),
  };
  gateFindings(run.findings, policy, (f, step) =>
    pass.event({
      kind: 'decision',
      name: 'finding.gated',
      eventCategory: 'filtering',
      body: { findingId: f.id, step, publication: f.publication, severity: f.severity },
    }),
  );
  await pass.complete('succeeded');
  return { ...run, matches };
}

/**
 * A model's finding (short of an error) more than a few lines from what changed since the last
 * review is `summaryOnly` / `outsideFocus`: no new comments on old code every push.
 */
function gateOutsideFocus(run: Reviewed, pass: ProtocolPass): void {
  const focusByPath = new Map(
    [...run.focus.lines].map(([id, lines]) => [(run.byId.get(id) as PlannedFile).file.path, lines]),
  );
  for (const f of run.findings) {
    const lines = f.anchor ? focusByPath.get(f.anchor.path) : undefined;
    if (!f.anchor || !lines || f.source !== 'model' || f.severity === 'error') continue;
    if (!nearFocus(lines, f.anchor.startLine, f.anchor.endLine) && demote(f, 'summaryOnly', 'outsideFocus')) {
      pass.event({
        kind: 'decision',
        name: 'finding.gated',
        eventCategory: 'filtering',
        body: { findingId: f.id, step: 'outsideFocus' },
      });
    }
  }
}
