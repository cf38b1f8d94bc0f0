import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Constant-time string comparison that also hides the length: both sides are hashed first, so
 * `timingSafeEqual` always compares 32 bytes.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}

/** Hex HMAC-SHA256 of the raw bytes, as GitHub's and Bitbucket's webhook signatures use it. */
export function hmacSha256Hex(secret: string, rawBody: Uint8Array): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * Checks a `sha256=<hex>` signature header over the raw body in constant time. A missing header,
 * another algorithm or an empty secret never verifies.
 */
export function verifySha256Signature(header: string | undefined, rawBody: Uint8Array, secret: string): boolean {
  if (!header || !secret) return false;
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim());
  if (!match?.[1]) return false;
  const expected = Buffer.from(hmacSha256Hex(secret, rawBody), 'hex');
  return timingSafeEqual(Buffer.from(match[1].toLowerCase(), 'hex'), expected);
}
