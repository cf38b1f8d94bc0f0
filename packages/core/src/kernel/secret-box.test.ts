import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createAesGcmSecretBox, sealedSecretContext } from './secret-box.js';

const KEY = Buffer.alloc(32, 1);
const HERE = sealedSecretContext('provider-connection.secret', 'row-1');
const THERE = sealedSecretContext('provider-connection.secret', 'row-2');

/** A value as the unbound `v1:` scheme wrote it. */
function legacySeal(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', KEY, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

describe('the AES-GCM secret box', () => {
  const box = createAesGcmSecretBox(KEY);

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('ghp_supersecret', HERE);
    expect(sealed).toMatch(/^v2:/);
    expect(sealed).not.toContain('ghp_supersecret');
    expect(box.open(sealed, HERE)).toBe('ghp_supersecret');
  });

  it('binds a value to its row and field: it does not open anywhere else', () => {
    const sealed = box.seal('ghp_supersecret', HERE);
    expect(() => box.open(sealed, THERE)).toThrow('could not be decrypted');
    expect(() => box.open(sealed, sealedSecretContext('ai-connection.apiKey', 'row-1'))).toThrow();
  });

  it('uses a fresh IV per value', () => {
    expect(box.seal('same', HERE)).not.toBe(box.seal('same', HERE));
  });

  it('refuses a value sealed with another key or tampered with, without revealing it', () => {
    const other = createAesGcmSecretBox(Buffer.alloc(32, 2));
    expect(() => other.open(box.seal('x', HERE), HERE)).toThrow('could not be decrypted');
    const sealed = box.seal('abc', HERE);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}=`;
    expect(() => box.open(tampered, HERE)).toThrow();
  });

  it('upgrades an unbound v1 value to a bound one, and opens only the upgraded value', () => {
    const legacy = legacySeal('old-token');
    expect(() => box.open(legacy, HERE)).toThrow('unknown format');
    const upgraded = box.upgrade(legacy, HERE);
    expect(upgraded).toMatch(/^v2:/);
    expect(box.open(upgraded, HERE)).toBe('old-token');
    expect(box.upgrade(upgraded, HERE)).toBe(upgraded);
    expect(() => createAesGcmSecretBox(Buffer.alloc(32, 2)).upgrade(legacy, HERE)).toThrow('could not be decrypted');
  });

  it('insists on a 32-byte key', () => {
    expect(() => createAesGcmSecretBox(Buffer.alloc(16))).toThrow('32 bytes');
  });
});
