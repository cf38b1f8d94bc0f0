import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS, MAX_VALIDATION_DETAILS, MarginError, toMarginError } from './errors.js';

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

describe('validation details', () => {
  it('keeps the first 20 issues and counts the rest, so a huge input answers a small body', () => {
    const parsed = z.array(z.string()).safeParse(Array.from({ length: 100_000 }, (_, i) => i));
    const body = toMarginError(parsed.error).toBody();
    expect(body.details).toHaveLength(MAX_VALIDATION_DETAILS);
    expect(body.detailsOmitted).toBe(100_000 - MAX_VALIDATION_DETAILS);
    expect(JSON.stringify(body).length).toBeLessThan(4096);
  });

  it('clips a path or message built from a huge key', () => {
    const key = 'k'.repeat(100_000);
    const body = MarginError.invalid([{ path: key, message: key }]).toBody();
    expect(JSON.stringify(body).length).toBeLessThan(2048);
    expect(body).not.toHaveProperty('detailsOmitted');
  });
});
