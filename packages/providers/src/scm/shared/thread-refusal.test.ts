import { MarginError } from '@margin/core/spec';
import { describe, expect, it } from 'vitest';
import { refusedThread } from './thread-refusal.js';

const anchor = { filePath: 'src/a.ts', startLine: 3, endLine: 4 };

describe('a refused thread', () => {
  it('names the place and keeps the provider status of a 400', () => {
    const error = refusedThread(
      'GitLab',
      { ...anchor, side: 'old' },
      MarginError.provider('rejected', 'GitLab answered 400: bad line', { providerStatus: 400 }),
    ) as MarginError;
    expect(error.message).toBe(
      'GitLab refused a thread on src/a.ts lines 3–4 (old side): GitLab answered 400: bad line',
    );
    expect(error.details).toEqual({ providerFailure: 'rejected', providerStatus: 400 });
  });

  it('leaves other failures as they are', () => {
    const unavailable = MarginError.provider('unavailable', 'down', { providerStatus: 503 });
    expect(refusedThread('GitLab', anchor, unavailable)).toBe(unavailable);
  });
});
