import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { MarginError } from './errors.js';

/**
 * Seals credentials at rest. Every sealed value is bound to where it is stored (`context`, from
 * `sealedSecretContext`): a value copied into another row or field, by anyone able to write the
 * database, does not open there. Sealed values are versioned so the scheme can change later.
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
  /**
   * A value sealed by an earlier scheme (`v1:`, unbound), sealed again under the current one for
   * `context`; a current value comes back as it is. For migrations only.
   */
  upgrade(sealed: string, context: string): string;
}

/** The stored fields that hold sealed values. */
export type SealedField =
  | 'provider-connection.secret'
  | 'ai-connection.apiKey'
  | 'webhook-configuration.secret'
  | 'identity-provider.clientSecret'
  | 'setting.value';

/** What a sealed value is bound to: its field and the id of its row (the key, for a setting). */
export function sealedSecretContext(field: SealedField, rowId: string): string {
  return `margin/${field}/${rowId}`;
}

const LEGACY = 'v1:';
const CURRENT = 'v2:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM with a random 96-bit IV per value and the context as associated data:
 * `v2:` + base64(iv | tag | ciphertext). (`v1:` values, before binding, had no associated data.)
 */
export function createAesGcmSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('The secrets key must be exactly 32 bytes.');
  const keyCopy = Buffer.from(key);
  const seal = (plaintext: string, context: string) => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', keyCopy, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return CURRENT + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  };
  const decrypt = (encoded: string, context: string | undefined) => {
    const raw = Buffer.from(encoded, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', keyCopy, raw.subarray(0, IV_BYTES));
    if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch (cause) {
      // Wrong key (a restored backup without its key file), another row's value, or tampered data.
      throw MarginError.internal('A stored secret could not be decrypted with the configured secrets key.', cause);
    }
  };
  return {
    seal,
    open(sealed, context) {
      if (!sealed.startsWith(CURRENT)) throw MarginError.internal('A stored secret has an unknown format.');
      return decrypt(sealed.slice(CURRENT.length), context);
    },
    upgrade(sealed, context) {
      if (sealed.startsWith(CURRENT)) return sealed;
      if (!sealed.startsWith(LEGACY)) throw MarginError.internal('A stored secret has an unknown format.');
      return seal(decrypt(sealed.slice(LEGACY.length), undefined), context);
    },
  };
}
