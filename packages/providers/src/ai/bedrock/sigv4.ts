import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4, as Bedrock needs it (service `bedrock`, header-signed requests). Own
 * code on node:crypto (~60 lines) rather than a dependency: it is synchronous, so it fits the
 * transport's request hook, and its test pins it to AWS's published example signature.
 */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
}

export interface SigV4Input {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: string;
  credentials: AwsCredentials;
  region: string;
  service: string;
  now: Date;
}

const sha256Hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding: `encodeURIComponent` leaves `!'()*` alone, AWS does not. */
function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Every service but S3 signs each path segment encoded twice. The URL already carries it encoded
 * once (e.g. a model id `a:1` travels as `a%3A1`), so one more encoding gives the canonical form.
 */
function canonicalPath(pathname: string): string {
  const path = pathname === '' ? '/' : pathname;
  return path
    .split('/')
    .map((segment) => rfc3986(segment))
    .join('/');
}

function canonicalQuery(url: URL): string {
  return [...url.searchParams]
    .map(([key, value]) => [rfc3986(key), rfc3986(value)] as const)
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

/** The headers to add to the request: `authorization`, `x-amz-date`, and the session token if any. */
export function signSigV4(input: SigV4Input): Record<string, string> {
  const amzDate = input.now.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers.host = input.url.host;
  headers['x-amz-date'] = amzDate;
  if (input.credentials.sessionToken) headers['x-amz-security-token'] = input.credentials.sessionToken;

  // Sign what AWS requires plus content-type; other headers (profile defaults) stay unsigned.
  const signed = Object.keys(headers)
    .filter((name) => name === 'host' || name === 'content-type' || name.startsWith('x-amz-'))
    .sort();
  const canonicalHeaders = signed
    .map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const signedHeaders = signed.join(';');
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalPath(input.url.pathname),
    canonicalQuery(input.url),
    canonicalHeaders,
    signedHeaders,
    sha256Hex(input.body),
  ].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${input.credentials.secretAccessKey}`, day), input.region), input.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');

  const out: Record<string, string> = {
    'x-amz-date': amzDate,
    authorization: `AWS4-HMAC-SHA256 Credential=${input.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
  if (input.credentials.sessionToken) out['x-amz-security-token'] = input.credentials.sessionToken;
  return out;
}
