/**
 * Test support for `margin review`: a repository with a realistic change on a feature branch
 * (several commits; a rename, a deletion, a binary file, CRLF line ends, an excluded file) and a
 * scripted OpenAI-compatible model that finds one defect in it.
 */
import type { FakeChatAnswer, FakeChatRequest } from '@margin/providers/testing';
import { type CommitStep, writeGitRepository } from '../git-repository.js';
import { confirmAll, findingsAnswer, isVerifying, numbered, userOf } from './review-scripts.js';

export const BILLING_BEFORE = numbered(30, (i) => `  step(${i});`);
export const BILLING_AFTER = numbered(30, (i) => (i === 12 ? '  const share = total / count;' : `  step(${i});`));

export const FEATURE_STEPS: CommitStep[] = [
  {
    message: 'Initial import',
    branch: 'main',
    files: {
      '.margin/config.yml': 'exclude:\n  - "docs/**"\n',
      'src/billing.ts': BILLING_BEFORE,
      'src/legacy.ts': 'export const legacy = true;\n',
      'src/format.ts': numbered(12, (i) => `export const f${i} = ${i};`),
      'docs/guide.md': '# Guide\n',
      'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
      'scripts/run.bat': 'echo one\r\necho two\r\necho three\r\n',
    },
  },
  {
    message: 'Split totals per line',
    branch: 'feature',
    files: { 'src/billing.ts': BILLING_AFTER, 'docs/guide.md': '# Guide\n\nTotals are split.\n' },
    renames: [['src/format.ts', 'src/formatting.ts']],
  },
  {
    message: 'Drop the legacy flag\n\nNobody reads it any more.',
    files: {
      'src/legacy.ts': null,
      'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9]),
      'scripts/run.bat': 'echo one\r\necho 2\r\necho three\r\n',
      // The change tries to switch its own review off: configuration is read from the base side only.
      '.margin/config.yml': 'exclude:\n  - "**"\n',
    },
  },
];

/** The feature repository in `dir`; answers its commit ids (main's, then the feature's two). */
export const writeFeatureRepository = (dir: string) => writeGitRepository(dir, FEATURE_STEPS);

/** Finds the division in `src/billing.ts` at `severity`, confirms it when verifying, nothing elsewhere. */
export function divisionReviewer(severity = 'error') {
  return (request: FakeChatRequest): FakeChatAnswer => {
    if (isVerifying(request)) return confirmAll(request);
    if (!userOf(request).includes('## File: src/billing.ts')) return findingsAnswer();
    return findingsAnswer({
      path: 'src/billing.ts',
      quote: 'const share = total / count;',
      startLine: 12,
      endLine: 12,
      category: 'bug',
      title: 'Division by zero for an empty order',
      severity,
      message: 'An order without lines has `count` 0, so `total / count` is NaN and every share reads NaN.',
    });
  };
}
