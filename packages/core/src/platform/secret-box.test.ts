import { describe, expect, it } from 'vitest';
import { createAesGcmSecretBox } from './secret-box.js';

describe('the AES-GCM secret box', () => {
  const box = createAesGcmSecretBox(Buffer.alloc(32, 1));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('ghp_supersecret');
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain('ghp_supersecret');
    expect(box.open(sealed)).toBe('ghp_supersecret');
  });

  it('uses a fresh IV per value', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses a value sealed with another key or tampered with, without revealing it', () => {
    const other = createAesGcmSecretBox(Buffer.alloc(32, 2));
    expect(() => other.open(box.seal('x'))).toThrow('could not be decrypted');
    const sealed = box.seal('abc');
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}=`;
    expect(() => box.open(tampered)).toThrow();
  });

  it('insists on a 32-byte key', () => {
    expect(() => createAesGcmSecretBox(Buffer.alloc(16))).toThrow('32 bytes');
  });
});
