import { describe, expect, it } from 'vitest';
import { signSigV4 } from './sigv4.js';

const EXAMPLE = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const signatureOf = (authorization: string | undefined) => /Signature=([0-9a-f]{64})$/.exec(authorization ?? '')?.[1];

describe('SigV4 signing', () => {
  it("reproduces AWS's published example signature (IAM ListUsers, 2015-08-30)", () => {
    const headers = signSigV4({
      method: 'GET',
      url: new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08'),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: '',
      credentials: EXAMPLE,
      region: 'us-east-1',
      service: 'iam',
      now: new Date('2015-08-30T12:36:00Z'),
    });
    expect(headers).toEqual({
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
    });
  });

  // Expected signatures below were computed independently with aws4fetch 1.0.20 (the signer the
  // AI SDK uses against Bedrock) for the same inputs; they pin the double-encoded model-id path.
  const now = new Date('2026-01-02T03:04:05Z');
  const converseUrl = (id: string) =>
    new URL(`https://bedrock-runtime.us-east-1.amazonaws.com/model/${encodeURIComponent(id)}/converse`);

  it.each([
    [
      'a model id with a colon',
      'anthropic.claude-3-5-sonnet-20240620-v1:0',
      '{"messages":[]}',
      undefined,
      '6733ae483fa747a1a4d45908fbb2122a2ab5335a56db477716caa1d39a3e179e',
    ],
    [
      'a session token',
      'anthropic.claude-3-5-sonnet-20240620-v1:0',
      '{"messages":[]}',
      'FwoGZXIvYXdzEXAMPLETOKEN',
      '7bf27775afa0e08dddedfc7ac9d9bf7d134b14d5e59d77015a51d63c3766d706',
    ],
    [
      'an inference-profile ARN',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-7-sonnet-20250219-v1:0',
      '{}',
      undefined,
      '53c20d66879738509ced467c1fc1d9a3ddcebbe41f3f88c3429c0f8f51bbc243',
    ],
  ])('signs a Converse call with %s', (_case, id, body, sessionToken, expected) => {
    const headers = signSigV4({
      method: 'POST',
      url: converseUrl(id),
      headers: {},
      body,
      credentials: { ...EXAMPLE, sessionToken },
      region: 'us-east-1',
      service: 'bedrock',
      now,
    });
    expect(signatureOf(headers.authorization)).toBe(expected);
    expect(headers['x-amz-security-token']).toBe(sessionToken);
  });

  it('signs the sorted query string of a control-plane call', () => {
    const headers = signSigV4({
      method: 'GET',
      url: new URL(
        'https://bedrock.eu-west-1.amazonaws.com/foundation-models?byOutputModality=TEXT&byInferenceType=ON_DEMAND',
      ),
      headers: {},
      body: '',
      credentials: EXAMPLE,
      region: 'eu-west-1',
      service: 'bedrock',
      now,
    });
    expect(signatureOf(headers.authorization)).toBe('d160ea9eb36001201ad3339c15230894d75759601a8c167d3185155df72ed5ef');
  });
});
