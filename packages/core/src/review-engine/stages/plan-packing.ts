import type { PullRequestSnapshot } from '../../scm-provider/index.js';
import type { SecretRedactor } from '../hostile/redact-secrets.js';
import type { PlannedFile } from '../pipeline/prepare-files.js';
import { type PackableFile, type PackLimits, type PackResult, packChunks } from '../plan/pack-chunks.js';
import { REVIEW_SYSTEM_PROMPT } from '../prompt/review-prompt.js';
import type { ReviewModel } from '../review-engine-v1.js';
import { countTokens, type PlannedFiles } from './plan-files.js';
import type { RunContext } from './run-context.js';

/** What a chunk's prompt holds besides its diff, and so how much diff a chunk may carry. */
export interface ChunkWindow {
  /** The pull request's title and description as prompts show them (redacted). */
  pullRequest: { title: string; description: string };
  /** Tokens of the system prompt and the pull request text around every chunk. */
  prefixTokens: number;
  limits: PackLimits;
}

/**
 * The chunk limits for the review model's window (or the configured default): the window less the
 * prompt around the diff, the answer reserve and a 10% margin.
 */
export function chunkWindow(
  ctx: RunContext,
  pr: PullRequestSnapshot,
  redactor: SecretRedactor,
  model: ReviewModel,
): ChunkWindow {
  const { settings } = ctx;
  const pullRequestText = redactor.redactText(`${pr.title}\n${pr.description}`).text;
  const [title = '', ...descriptionLines] = pullRequestText.split('\n');
  const prefixTokens = countTokens(REVIEW_SYSTEM_PROMPT) + countTokens(pullRequestText) + 300;
  const window = model.maxContextTokens ?? settings.defaultContextTokens;
  const maxTokens = Math.max(500, window - prefixTokens - settings.outputReserveTokens - Math.ceil(window * 0.1));
  return {
    pullRequest: { title, description: descriptionLines.join('\n').trim() },
    prefixTokens,
    limits: { targetTokens: settings.targetChunkTokens, maxTokens },
  };
}

/** The files packed into chunks before the spend caps have their say. */
export interface Packing {
  /** The files a model is to see: planned, less what triage approved skipping. */
  reviewable: PlannedFile[];
  packable: PackableFile[];
  packed: PackResult;
}

/**
 * Packs the reviewable files into chunks at hunk boundaries. A file with a hunk no chunk can hold is
 * `partial` (or `skipped`, when none fits) / `hunkTooLarge`; each reviewable file's coverage gets
 * the diff tokens it was planned with.
 */
export function packFiles(files: PlannedFiles, triaged: boolean, limits: PackLimits): Packing {
  const { planned } = files.prepared;
  // What triage approved skipping is not packed; every later step sees it as skipped.
  const reviewable = triaged ? planned.filter((p) => p.coverage.state !== 'skipped') : planned;
  const packable = reviewable.map((p) => ({
    id: p.id,
    path: p.file.path,
    headerTokens: p.headerTokens,
    hunks: p.hunks,
    tier: p.tier,
  }));
  const packed = packChunks(packable, limits);
  for (const [fileId, hunks] of packed.oversized) {
    const file = files.byId.get(fileId) as PlannedFile;
    file.coverage.state = hunks.length === file.hunks.length ? 'skipped' : 'partial';
    file.coverage.reason = 'hunkTooLarge';
  }
  for (const file of reviewable) {
    file.coverage.tokens = file.headerTokens + file.hunks.reduce((n, h) => n + h.tokens, 0);
  }
  return { reviewable, packable, packed };
}
