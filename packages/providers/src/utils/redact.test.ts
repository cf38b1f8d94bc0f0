import { describe, expect, it } from 'vitest';
import { providerMessage, redactSecrets } from './redact.js';

describe('redactSecrets', () => {
  it('removes the given secrets and anything credential-shaped', () => {
    expect(redactSecrets('key my-configured-secret used', ['my-configured-secret'])).toBe('key [redacted] used');
    expect(redactSecrets('Authorization: Bearer abc.def.ghi123', [])).toBe('Authorization: Bearer [redacted]');
    expect(redactSecrets('token ghp_abcdefghijklmnop1234 leaked', [])).toBe('token [redacted] leaked');
    expect(redactSecrets('GET /models?api-key=hunter22&x=1', [])).toBe('GET /models?api-key=[redacted]&x=1');
  });

  it('removes any part of a secret of 8 characters or more, and its Basic-auth forms', () => {
    const pat = 'q7vw3kzr2xnm4pbt6ydc5hja8feg';
    expect(redactSecrets(`token ${pat.slice(0, 14)} / ${pat.slice(14)} end`, [pat])).toBe(
      'token [redacted] / [redacted] end',
    );
    expect(redactSecrets(`you sent ${pat.slice(3, 11)}, not ${pat.slice(3, 10)}`, [pat])).toBe(
      `you sent [redacted], not ${pat.slice(3, 10)}`,
    );
    const basic = Buffer.from(`:${pat}`).toString('base64');
    expect(redactSecrets(`header was ${basic}`, [pat])).toBe('header was [redacted]');
    expect(redactSecrets(`prefix ${basic.slice(0, 20)}`, [pat])).toBe('prefix [redacted]');
    expect(redactSecrets(`raw ${Buffer.from(pat).toString('base64')}!`, [pat])).toBe('raw [redacted]!');
    expect(redactSecrets('Bad credentials for margin-bot.', [pat])).toBe('Bad credentials for margin-bot.');
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
