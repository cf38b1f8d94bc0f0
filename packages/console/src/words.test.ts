import { describe, expect, it } from 'vitest';
import { COVERAGE_REASONS, citationInWords, FINDING_REASONS, reasonInWords } from './words.js';

describe('reasonInWords', () => {
  it('says a known code in words', () => {
    expect(reasonInWords(FINDING_REASONS, 'unknownPath')).toBe('It names a file that is not part of this change.');
    expect(reasonInWords(COVERAGE_REASONS, 'lockFile')).toBe('A lock file.');
    expect(reasonInWords(COVERAGE_REASONS, 'budget')).toMatch(/^Left out by the spend cap/);
  });

  it('keeps the detail a code carries after its colon', () => {
    expect(reasonInWords(COVERAGE_REASONS, 'modelError: The provider did not answer in time.')).toBe(
      'The model call failed. The provider did not answer in time.',
    );
  });

  it('shows a code it does not know as it comes, rather than hiding it', () => {
    expect(reasonInWords(FINDING_REASONS, 'someNewReason')).toBe('someNewReason');
    expect(reasonInWords(COVERAGE_REASONS, 'newCode: with detail')).toBe('newCode: with detail');
  });
});

describe('citationInWords', () => {
  it('names the file, its lines and the short commit the passage was indexed at', () => {
    const commit = 'd4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3';
    expect(citationInWords({ path: 'lib/tokens.ts', startLine: 20, endLine: 26, commit })).toBe(
      'lib/tokens.ts, lines 20–26 at d4e5f6a',
    );
    expect(citationInWords({ path: 'Home.md', startLine: 3, endLine: 3, commit })).toBe('Home.md, line 3 at d4e5f6a');
  });
});
