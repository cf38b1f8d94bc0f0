import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS, MarginError, toMarginError } from './errors.js';

describe('MarginError', () => {
  it('maps every code to its HTTP status', () => {
    expect(new MarginError('validation_failed', 'x').status).toBe(400);
    expect(MarginError.licenseRequired('crawl-configs', 'x').status).toBe(409);
    expect(MarginError.rateLimited('x', 3).status).toBe(429);
    expect(Object.keys(ERROR_STATUS)).toContain('provider_unavailable');
  });

  it('is recognised across package copies by its marker, not by instanceof', () => {
    const foreign = Object.assign(new Error('copy'), { [Symbol.for('margin.error')]: true });
    expect(MarginError.isInstance(foreign)).toBe(true);
    expect(MarginError.isInstance(new Error('plain'))).toBe(false);
  });

  it('builds the wire body with details that cannot override error or code', () => {
    const error = MarginError.conflict('A review of this revision is already active.', { jobId: 'j1', code: 'hijack' });
    expect(error.toBody()).toEqual({
      error: 'A review of this revision is already active.',
      code: 'conflict',
      jobId: 'j1',
    });
    expect(MarginError.licenseRequired('budgeting', 'Budgets need a Commercial license.').toBody()).toEqual({
      error: 'Budgets need a Commercial license.',
      code: 'license_required',
      capability: 'budgeting',
    });
  });
});

describe('toMarginError', () => {
  it('turns a zod failure into validation_failed with per-field paths', () => {
    const schema = z.object({ configuredModels: z.array(z.object({ tokenizerName: z.string() })) });
    const parsed = schema.safeParse({ configuredModels: [{}] });
    const error = toMarginError(parsed.error);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({
      details: [{ path: 'configuredModels[0].tokenizerName', message: expect.any(String) }],
    });
    expect(error.message).toMatch(/^Invalid request: configuredModels\[0\]\.tokenizerName: /);
  });

  it('hides anything unexpected behind a generic internal error, keeping the cause for logs', () => {
    const cause = new Error('connect ECONNREFUSED postgres://user:secret@db');
    const error = toMarginError(cause);
    expect(error.code).toBe('internal');
    expect(error.message).toBe('An internal error occurred.');
    expect(error.cause).toBe(cause);
  });
});
