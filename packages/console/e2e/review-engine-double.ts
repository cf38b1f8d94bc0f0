/**
 * The browser suite's stand-in for the review engine, kept in this one file so it can be swapped for
 * the real engine with a faked model once that lands: `startConsoleHost` takes any `ReviewEngineV1`.
 *
 * It behaves like a review seen from outside: progress file by file (slow enough for the job page to
 * show it), protocol passes with events in every category, and a result with a finding in each
 * publication state, a coverage manifest in every file state (plus a field the console does not know)
 * and usage with cost per model.
 */
import type { ReviewEngineV1, ReviewOutcome } from '@margin/core';

export const FILES = ['src/upload.ts', 'src/limits.ts', 'src/legacy.ts', 'package-lock.json', 'src/big.ts'] as const;

export const FINDINGS = [
  {
    id: 'f-published',
    fingerprint: 'fp-published',
    filePath: 'src/upload.ts',
    startLine: 12,
    endLine: 14,
    severity: 'error',
    confidence: 92,
    category: 'correctness',
    message: 'The upload size check runs after the whole body is buffered.',
    suggestion: 'if (length > LIMIT) return reject(413);',
    publication: 'published',
    providerThreadId: 'thread-101',
  },
  {
    id: 'f-summary',
    fingerprint: 'fp-summary',
    filePath: 'src/upload.ts',
    startLine: 40,
    endLine: 40,
    severity: 'suggestion',
    confidence: 61,
    category: 'maintainability',
    message: 'This helper duplicates the one in src/limits.ts.',
    publication: 'summaryOnly',
    reason: 'Below the inline-comment confidence floor (70); named in the summary.',
  },
  {
    id: 'f-suppressed',
    fingerprint: 'fp-suppressed',
    filePath: 'src/limits.ts',
    startLine: 7,
    endLine: 7,
    severity: 'warning',
    confidence: 80,
    category: 'style',
    message: 'Magic number 1048576; name the constant.',
    publication: 'suppressed',
    reason: 'Matches a finding already posted on revision 1 (thread-77).',
  },
  {
    id: 'f-dropped',
    fingerprint: 'fp-dropped',
    filePath: 'src/legacy.ts',
    startLine: 3,
    endLine: 3,
    severity: 'info',
    confidence: 30,
    category: 'performance',
    message: 'Consider streaming the legacy export.',
    publication: 'dropped',
    reason: 'Line 3 is not part of the diff and the finding could not be anchored.',
  },
] as const;

export const COVERAGE = {
  files: [
    { path: 'src/upload.ts', state: 'reviewed', tokens: 1840 },
    { path: 'src/limits.ts', state: 'reviewed', tokens: 420 },
    { path: 'src/big.ts', state: 'partial', reason: 'Hunks 4–9 exceeded the context budget.', tokens: 30000 },
    { path: 'src/legacy.ts', state: 'carriedForward', reason: 'Unchanged since the last reviewed revision.' },
    { path: 'package-lock.json', state: 'skipped', reason: 'Lock file.' },
    { path: 'src/generated.ts', state: 'reviewFailed', reason: 'The model answered invalid JSON twice.', chunks: 2 },
  ],
  budgetTokens: 32768,
};

const STEP_MS = 150;

export interface ReviewEngineDouble extends ReviewEngineV1 {
  /** Lets reviews past their first file; until then they hold, so a test can watch them run. */
  release(): void;
}

/** Rejects when the worker cancels the review (stop, shutdown), so a held review never blocks it. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}

export function createReviewEngineDouble(): ReviewEngineDouble {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(),
    specificationVersion: 'v1',
    async review(_job, ctx): Promise<ReviewOutcome> {
      const wait = () =>
        new Promise<void>((resolve, reject) => {
          if (ctx.signal.aborted) return reject(new Error('aborted'));
          setTimeout(resolve, STEP_MS);
        });

      const resolvePass = await ctx.protocol.pass('resolve', 'Read the pull request');
      resolvePass.event({ kind: 'call', name: 'getPullRequest', eventCategory: 'scm-call', durationMs: 8 });
      await resolvePass.complete('succeeded');

      const plan = await ctx.protocol.pass('plan', 'Plan the review');
      plan.event({ kind: 'decision', name: 'files.selected', eventCategory: 'planning', body: { files: FILES } });
      plan.event({
        kind: 'decision',
        name: 'file.skipped',
        eventCategory: 'planning',
        body: { path: 'package-lock.json', reason: 'Lock file.' },
      });
      await plan.complete('succeeded');

      ctx.reportProgress({ filesTotal: FILES.length, filesDone: 0 });
      for (const [index, file] of FILES.entries()) {
        await wait();
        const pass = await ctx.protocol.pass('review', `Review ${file}`, file);
        pass.event({
          kind: 'call',
          name: 'chat',
          eventCategory: 'ai-call',
          inputTokens: 900,
          outputTokens: 120,
          durationMs: 40,
          body: { prompt: `Review the diff of ${file}`, answer: '{"findings":[]}' },
        });
        if (index === 0) {
          pass.event({
            kind: 'call',
            name: 'readFileSlice',
            eventCategory: 'tool-call',
            body: { path: file, lines: [1, 40] },
          });
        }
        await pass.complete('succeeded', { inputTokens: 900, cachedInputTokens: 100, outputTokens: 120 });
        ctx.reportProgress({ filesTotal: FILES.length, filesDone: index + 1 });
        if (index === 0) await Promise.race([released, aborted(ctx.signal)]);
      }

      const filter = await ctx.protocol.pass('filter', 'Filter findings');
      filter.event({
        kind: 'decision',
        name: 'finding.dropped',
        eventCategory: 'filtering',
        body: { id: 'f-dropped' },
      });
      filter.event({
        kind: 'decision',
        name: 'finding.suppressed',
        eventCategory: 'duplicate-suppression',
        body: { id: 'f-suppressed' },
      });
      filter.event({ kind: 'decision', name: 'dismissals.checked', eventCategory: 'memory', body: { matched: 0 } });
      await filter.complete('succeeded');

      const publish = await ctx.protocol.pass('publish', 'Publish threads');
      publish.event({
        kind: 'call',
        name: 'createThread',
        eventCategory: 'publication',
        body: { findingId: 'f-published' },
      });
      publish.event({ kind: 'note', name: 'lease.renewed', eventCategory: 'operational' });
      await publish.complete('succeeded');

      return {
        status: 'completed',
        result: {
          summary: 'One problem posted inline; one suggestion in this summary. Two findings were held back.',
          findings: [...FINDINGS],
          coverage: COVERAGE,
        },
        usage: {
          inputTokens: 4500,
          cachedInputTokens: 500,
          outputTokens: 600,
          estimatedCostUsd: 0.0123,
          byModel: [
            {
              connectionId: 'double',
              remoteModelId: 'qwen2.5-coder:32b',
              purpose: 'reviewDefault',
              inputTokens: 4500,
              cachedInputTokens: 500,
              outputTokens: 600,
              estimatedCostUsd: 0.0123,
            },
          ],
        },
      };
    },
  };
}
