import { describe, expect, it } from 'vitest';
import { bitbucketCredential } from './bitbucket-credentials.js';

describe('the Bitbucket credential-kind rule', () => {
  it('reads email:token as an Atlassian API token sent with Basic', () => {
    const credential = bitbucketCredential('ada@example.com:ATATT3xFfGF0abc=');
    expect(credential.kind).toBe('apiToken');
    expect(credential.authorization).toBe(
      `Basic ${Buffer.from('ada@example.com:ATATT3xFfGF0abc=').toString('base64')}`,
    );
    expect(credential.secrets).toContain('ATATT3xFfGF0abc=');
  });

  it('also sends a legacy username:app-password with Basic', () => {
    expect(bitbucketCredential('ada:ATBBappPassword').kind).toBe('apiToken');
  });

  it('reads a value without a colon as an access token sent with Bearer', () => {
    expect(bitbucketCredential('  ATCTT3xFfGN0token=  ')).toEqual({
      kind: 'accessToken',
      authorization: 'Bearer ATCTT3xFfGN0token=',
      secrets: ['ATCTT3xFfGN0token='],
    });
  });

  it('does not take a colon at either end, or after spaces, for the Basic form', () => {
    expect(bitbucketCredential(':token').kind).toBe('accessToken');
    expect(bitbucketCredential('token:').kind).toBe('accessToken');
    expect(bitbucketCredential('not an email:token').kind).toBe('accessToken');
  });
});
