import { SecretRedactor } from '../hostile/redact-secrets.js';
import { type Focus, focusSince } from '../pipeline/focus-ranges.js';
import { type PlannedFile, type PreparedFiles, prepareFiles } from '../pipeline/prepare-files.js';
import { excludeMatcher } from '../plan/classify-file.js';
import { estimateTokens } from '../plan/pack-chunks.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { Collected } from './collect.js';
import { FileProgress, type RunContext } from './run-context.js';

// Planning weighs every file, so it uses the character estimate (about 12% high for code, which
// errs on the safe side): exact tokenizers cost 0.3–0.5 ms per KB, over the per-file budget on
// large pull requests. What each call really used comes back in the provider's usage figures.
export const countTokens = estimateTokens;
export const TOKENS_APPROXIMATE = true;

/** Every changed file sorted into what needs a model and what does not, and what changed since the last review. */
export interface PlannedFiles {
  progress: FileProgress;
  /** The job's redactor: what a model is shown of the head revision goes through it too. */
  redactor: SecretRedactor;
  prepared: PreparedFiles;
  byId: ReadonlyMap<number, PlannedFile>;
  focus: Focus;
}

/**
 * The plan's deterministic part: exclusions (binaries, lock files, generated, vendored, the
 * repository's globs, renames and reformatting), files carried forward unchanged since the last
 * review, diffs made safe to show, and the focus lines of an incremental review.
 */
export async function planFiles(ctx: RunContext, run: Collected, pass: ProtocolPass): Promise<PlannedFiles> {
  const { input, settings, signal, source } = ctx;
  const { baseline, revision } = run;
  const progress = new FileProgress(run.files.length, input.reportProgress);
  const redactor = new SecretRedactor();
  const prepared = await prepareFiles({
    // In place: every later step sees the changed files in path order.
    files: run.files.sort((a, b) => a.path.localeCompare(b.path)),
    revision,
    source,
    excluded: excludeMatcher(run.config.exclude),
    redactor,
    countTokens,
    signal,
    newId: () => input.ids.uuid(),
    concurrency: settings.diffFetchConcurrency,
    onSettled: (n) => {
      progress.settled(n);
      progress.report();
    },
    unchangedSinceLastReview: baseline ? (path, key) => baseline.files.get(path) === key : undefined,
  });
  const focus: Focus =
    baseline && prepared.planned.length > 0
      ? await focusSince({
          baseline,
          revision,
          planned: prepared.planned,
          source,
          signal,
          concurrency: settings.diffFetchConcurrency,
        })
      : { relation: baseline ? 'identical' : 'none', lines: new Map() };
  if (baseline) {
    pass.event({
      kind: 'decision',
      name: 'incremental',
      eventCategory: 'planning',
      body: {
        sinceHeadSha: baseline.headSha,
        relation: focus.relation,
        carriedForward: prepared.coverage.filter((c) => c.state === 'carriedForward').length,
        focusedFiles: focus.lines.size,
        fullReview: focus.relation !== 'ahead' && focus.relation !== 'identical',
      },
    });
  }
  const byId = new Map(prepared.planned.map((p) => [p.id, p]));
  return { progress, redactor, prepared, byId, focus };
}
