import { describe, expect, it } from 'vitest';
import { providerMessage, redactSecrets } from './redact.js';

describe('redactSecrets', () => {
  it('removes the given secrets and anything credential-shaped', () => {
    expect(redactSecrets('key my-configured-secret used', ['my-configured-secret'])).toBe('key [redacted] used');
    expect(redactSecrets('Authorization: Bearer abc.def.ghi123', [])).toBe('Authorization: Bearer [redacted]');
    expect(redactSecrets('token ghp_abcdefghijklmnop1234 leaked', [])).toBe('token [redacted] leaked');
    expect(redactSecrets('GET /models?api-key=hunter22&x=1', [])).toBe('GET /models?api-key=[redacted]&x=1');
  });
});

describe('providerMessage', () => {
  it.each([
    [{ message: 'Bad credentials' }, 'Bad credentials'],
    [{ error: { message: 'Invalid model', type: 'invalid_request_error' } }, 'Invalid model'],
    [
      { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret.' },
      'AADSTS7000215: Invalid client secret.',
    ],
    [{ errors: [{ message: 'first' }, { message: 'second' }] }, 'first'],
    ['plain text\nacross lines', 'plain text across lines'],
    ['<html>gateway</html>', undefined],
  ])('reads %o', (body, expected) => {
    expect(providerMessage(body)).toBe(expected);
  });
});
