import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { MarginError } from '../errors.js';

/** Seals credentials at rest. Sealed values are versioned so the scheme can change later. */
export interface SecretBox {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

const PREFIX = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM with a random 96-bit IV per value: `v1:` + base64(iv | tag | ciphertext). */
export function createAesGcmSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be exactly 32 bytes.');
  const keyCopy = Buffer.from(key);
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyCopy, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) throw MarginError.internal('A stored secret has an unknown format.');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', keyCopy, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch (cause) {
        // Wrong key (e.g. a restored backup without its key file) or tampered data.
        throw MarginError.internal('A stored secret could not be decrypted with the configured secrets key.', cause);
      }
    },
  };
}
