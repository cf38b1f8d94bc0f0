import { describe, expect, it } from 'vitest';
import { COVERAGE_REASONS, FINDING_REASONS, reasonInWords } from './words.js';

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
