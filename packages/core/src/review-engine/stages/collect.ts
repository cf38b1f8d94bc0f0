import { MarginError } from '../../kernel/index.js';
import type { ChangedFile, ListingTruncation, ReviewThread } from '../../scm-provider/index.js';
import { parseRepoConfig, REPO_CONFIG_PATH, type RepoConfig } from '../config/repo-config.js';
import type { DismissedFinding, KnownFinding, PublicationEntry, ReviewBaseline } from '../memory/review-memory.js';
import type { PastDecision } from '../memory/thread-memory.js';
import { applyThreadClosures } from '../pipeline/finding-lifecycle.js';
import type { ProtocolPass } from '../protocol/protocol-writer.js';
import type { Resolved } from './resolve.js';
import type { RunContext } from './run-context.js';

/** What collect gathered: the change, the threads on it, the repository's settings and the memory of earlier reviews. */
export interface Collected extends Resolved {
  files: ChangedFile[];
  /** Set when the provider listed fewer files than the pull request has. */
  truncation: ListingTruncation | undefined;
  threads: ReviewThread[];
  dismissals: DismissedFinding[];
  /** The publication outbox as this run found it. */
  publications: PublicationEntry[];
  config: RepoConfig;
  /** Findings of earlier reviews, with people's closures applied. */
  known: KnownFinding[];
  /** Findings people closed as won't-fix or by design since the last review. */
  dismissedByPeople: KnownFinding[];
  /** The last completed review, which this one builds on. */
  baseline: ReviewBaseline | undefined;
  /** What people decided about findings in this repository (thread memory), newest first. */
  pastDecisions: PastDecision[];
}

/**
 * Stage 2, collect: every changed file (all pages), the existing threads, `.margin/config.yml` from
 * the target branch, dismissals, the outbox and what earlier reviews found.
 */
export async function collect(ctx: RunContext, run: Resolved): Promise<Collected> {
  const { input, signal, source } = ctx;
  const pass = await ctx.protocol.pass('collect', 'Collect changed files, threads and settings');
  let truncation: ListingTruncation | undefined;
  const files: ChangedFile[] = [];
  const onTruncated = (t: ListingTruncation) => {
    truncation = t;
  };
  for await (const file of source.listChangedFiles(run.revision, { signal, onTruncated })) files.push(file);
  const threads: ReviewThread[] = [];
  for await (const thread of source.listThreads({ signal })) threads.push(thread);
  const [dismissals, publications, config, loadedKnown, baseline] = await Promise.all([
    input.memory.dismissals(),
    input.memory.publications.list(),
    readRepoConfig(ctx, run.pr.targetBranch, pass),
    input.memory.findings?.list() ?? Promise.resolve([]),
    input.memory.lastReview?.() ?? Promise.resolve(undefined),
  ]);
  const closures = applyThreadClosures(loadedKnown, threads);
  const known = closures.known;
  pass.event({
    kind: 'decision',
    name: 'memory.read',
    eventCategory: 'memory',
    body: {
      knownFindings: countStates(known),
      dismissedByPeople: closures.dismissed.map((k) => k.id),
      lastReview: baseline ? { headSha: baseline.headSha, files: baseline.files.size } : null,
    },
  });
  pass.event({
    kind: 'call',
    name: 'changes.listed',
    eventCategory: 'scm-call',
    body: {
      files: files.length,
      truncated: truncation ?? null,
      threads: threads.length,
      ourThreads: threads.filter((t) => t.marker).length,
    },
  });
  if (truncation) {
    pass.event({ kind: 'warning', name: 'changes.truncated', eventCategory: 'operational', body: truncation });
  }
  await pass.complete('succeeded');
  const memory = { dismissals, publications, config, known, dismissedByPeople: closures.dismissed, baseline };
  return { ...run, files, truncation, threads, ...memory, pastDecisions: [] };
}

function countStates(known: readonly KnownFinding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of known) counts[k.state] = (counts[k.state] ?? 0) + 1;
  return counts;
}

/** `.margin/config.yml` from the target branch: missing means defaults, invalid means warnings. */
async function readRepoConfig(ctx: RunContext, targetBranch: string, pass: ProtocolPass): Promise<RepoConfig> {
  const { signal } = ctx;
  let text: string | undefined;
  try {
    text = (await ctx.source.getFileContent(REPO_CONFIG_PATH, { branch: targetBranch }, { signal }))?.text;
  } catch (error) {
    if (signal.aborted) throw error;
    pass.event({
      kind: 'warning',
      name: 'config.unreadable',
      eventCategory: 'operational',
      body: {
        path: REPO_CONFIG_PATH,
        branch: targetBranch,
        message: MarginError.isInstance(error) ? error.message : 'read failed',
      },
    });
    return { exclude: [], instructions: [] };
  }
  if (text === undefined) return { exclude: [], instructions: [] };
  const { config, warnings } = parseRepoConfig(text);
  for (const warning of warnings) {
    pass.event({ kind: 'warning', name: 'config.invalid', eventCategory: 'operational', body: { message: warning } });
  }
  pass.event({
    kind: 'decision',
    name: 'config.read',
    eventCategory: 'operational',
    body: {
      branch: targetBranch,
      exclude: config.exclude.length,
      instructions: config.instructions.length,
      minimumSeverity: config.minimumSeverity ?? null,
      maxComments: config.maxComments ?? null,
      thorough: config.thorough ?? false,
    },
  });
  return config;
}
