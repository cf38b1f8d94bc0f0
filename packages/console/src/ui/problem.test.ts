import { errorFromResponse } from '@margin/sdk-client';
import { describe, expect, it } from 'vitest';
import { fieldMessage, toProblem, unlessMissing } from './problem.js';

describe('toProblem', () => {
  it('keeps the API message and its field details for the form to place', () => {
    const problem = toProblem(
      errorFromResponse(400, {
        error: 'The request is invalid.',
        code: 'validation_failed',
        details: [{ path: 'configuredModels[0].tokenizerName', message: 'is required for an embedding model' }],
      }),
    );
    expect(problem.message).toBe('The request is invalid.');
    expect(fieldMessage(problem, 'configuredModels[0].tokenizerName')).toBe('is required for an embedding model');
    expect(fieldMessage(problem, 'displayName')).toBeUndefined();
  });

  it('explains a locked account, the rate limit with its wait, and a missing license', () => {
    expect(toProblem(errorFromResponse(401, { error: 'Account locked.', code: 'account_locked' })).message).toMatch(
      /five wrong passwords in a row .* 15 minutes/,
    );
    expect(
      toProblem(errorFromResponse(429, { error: 'Too many requests.', code: 'rate_limited' }, '42')).message,
    ).toMatch(/try again in 42 seconds/);
    expect(
      toProblem(
        errorFromResponse(409, {
          error: 'Crawling needs a Commercial license.',
          code: 'license_required',
          capability: 'crawl-configs',
        }),
      ).message,
    ).toMatch(/under Licensing/);
  });

  it('says when the API could not be reached at all', () => {
    expect(toProblem(new TypeError('Failed to fetch')).message).toMatch(/could not be reached/);
  });
});

describe('unlessMissing', () => {
  it('turns a 404 into null and lets every other failure through', async () => {
    expect(await unlessMissing(Promise.reject(errorFromResponse(404, { error: 'No.', code: 'not_found' })))).toBeNull();
    await expect(
      unlessMissing(Promise.reject(errorFromResponse(403, { error: 'No.', code: 'forbidden' }))),
    ).rejects.toThrow('No.');
  });
});
