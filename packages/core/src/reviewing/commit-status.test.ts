import { describe, expect, it } from 'vitest';
import { finalStatus, findingCounts, jobPageUrl } from './commit-status.js';

const finding = (severity: string, publication = 'published') => ({ severity, publication });

describe('the final review status', () => {
  it('is a success counting what the review posted, inline or in the summary, by severity', () => {
    const result = {
      findings: [
        finding('warning'),
        finding('error', 'summaryOnly'),
        finding('warning'),
        finding('error', 'suppressed'),
        finding('info', 'dropped'),
      ],
    };
    expect(finalStatus({ status: 'completed', result })).toEqual({
      state: 'success',
      description: '3 findings: 1 error, 2 warnings',
    });
    expect(findingCounts({ findings: [finding('suggestion')] })).toBe('1 finding: 1 suggestion');
    expect(findingCounts({ findings: [] })).toBe('No findings');
  });

  it('is a failure for a failed review and an error for every other end, with the reason', () => {
    expect(finalStatus({ status: 'failed', reason: 'Every chunk failed.' })).toEqual({
      state: 'failure',
      description: 'Every chunk failed.',
    });
    expect(finalStatus({ status: 'budgetExceeded', reason: 'The hard cap was reached.' })).toEqual({
      state: 'error',
      description: 'The hard cap was reached.',
    });
    expect(finalStatus({ status: 'cancelled' })).toEqual({
      state: 'error',
      description: 'The review did not complete.',
    });
  });

  it('links the console page of the job under the public address', () => {
    expect(jobPageUrl('https://reviews.example.com/margin/', { id: 'j 1', clientId: 'c1' })).toBe(
      'https://reviews.example.com/margin/clients/c1/reviews/j%201',
    );
  });
});
