import type { UserRecord } from '../../identity/user-record.js';

/** All rows of the memory storage. Plain Maps, so a transaction can work on a structured clone. */
export interface MemoryState {
  users: Map<string, UserRecord>;
  settings: Map<string, unknown>;
}

export function emptyMemoryState(): MemoryState {
  return { users: new Map(), settings: new Map() };
}

/** Records leave and enter the store as copies, so callers never alias stored rows. */
export const copy = <T>(value: T): T => structuredClone(value);
