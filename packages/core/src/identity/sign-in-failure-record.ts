/**
 * Failed sign-ins, kept per username (as typed, lower-cased, whether or not such a user exists) and
 * source: the address the attempt came from, or `*` for the username across every address.
 */
export interface SignInFailureRecord {
  usernameKey: string;
  source: string;
  /** For an address: consecutive failures since the last success or lockout. For `*`: failures in the current window. */
  failures: number;
  /** Lockouts in the current streak; each one doubles the next lockout's length. */
  lockouts: number;
  lockedUntil: string | null;
  lastFailureAt: string;
}

export interface SignInFailuresRepository {
  /** The records of these sources for the username (missing ones are left out). */
  find(usernameKey: string, sources: readonly string[]): Promise<SignInFailureRecord[]>;
  /** Inserts or replaces the record of (usernameKey, source). */
  put(record: SignInFailureRecord): Promise<void>;
  /** Forgets one source of the username, or every source when none is given. */
  clear(usernameKey: string, source?: string | undefined): Promise<void>;
  /** Deletes up to `limit` records whose last failure was before `before`; answers how many went. */
  deleteStale(before: string, limit: number): Promise<number>;
}
