import { randomBytes, randomUUID } from 'node:crypto';

/** Identifiers and random secrets, injected so tests can make them predictable. */
export interface Ids {
  /** A new resource id (UUID v4). */
  uuid(): string;
  /** `bytes` random bytes as lower-case hex, for tokens and generated secrets. */
  randomHex(bytes: number): string;
}

export const randomIds: Ids = {
  uuid: () => randomUUID(),
  randomHex: (bytes) => randomBytes(bytes).toString('hex'),
};
