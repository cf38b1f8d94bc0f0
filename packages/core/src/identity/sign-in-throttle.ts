import { expandIpv6 } from '../egress/index.js';
import { pause } from '../kernel/index.js';
import type { IdentityDeps } from './identity-deps.js';
import type { SignInFailureRecord } from './sign-in-failure-record.js';

/** The record that counts a username's failures from every address. */
const ANY_SOURCE = '*';
/** Failures across addresses that cost nothing: a person mistyping on a few devices. */
const FREE_FAILURES = 5;
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;
const STALE_AFTER_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/**
 * The source an attempt is counted under: the IPv4 address, or the /64 of an IPv6 one (a single
 * subscriber holds a whole /64, so counting single IPv6 addresses would let one caller rotate).
 */
export function sourceKeyOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (!plain.includes(':')) return plain;
  const groups = expandIpv6(plain);
  return groups
    ? `${groups
        .slice(0, 4)
        .map((g) => g.toString(16))
        .join(':')}::/64`
    : plain;
}

export interface SignInState {
  usernameKey: string;
  source: string;
  pair: SignInFailureRecord | undefined;
  any: SignInFailureRecord | undefined;
}

/**
 * Lockout per username and source address, slow-down per username (decisions.md, Identity): five
 * consecutive failures of one username from one address lock that pair for 15 minutes, doubling up
 * to 60; failures of a username across addresses delay every later attempt for it, the right one
 * included, but never refuse it. Nothing here depends on whether the user exists, so neither the
 * answer nor its timing can tell.
 */
export class SignInThrottle {
  private lastPrune = 0;

  constructor(private readonly deps: Pick<IdentityDeps, 'storage' | 'clock' | 'auth'>) {}

  async read(username: string, address: string | undefined): Promise<SignInState> {
    const usernameKey = username.trim().toLowerCase();
    const source = sourceKeyOf(address);
    const found = await this.deps.storage.signInFailures.find(usernameKey, [source, ANY_SOURCE]);
    return {
      usernameKey,
      source,
      pair: found.find((r) => r.source === source),
      any: found.find((r) => r.source === ANY_SOURCE),
    };
  }

  /** Waits as long as the username's recent failures across addresses ask for. */
  async slowDown(state: SignInState, now: Date): Promise<void> {
    const failures = this.recentFailures(state.any, now);
    if (failures <= FREE_FAILURES) return;
    const ms = Math.min(FIRST_DELAY_MS * 2 ** (failures - FREE_FAILURES - 1), MAX_DELAY_MS);
    await pause(this.deps.clock, ms);
  }

  isLocked(state: SignInState, now: Date): boolean {
    return state.pair?.lockedUntil != null && state.pair.lockedUntil > now.toISOString();
  }

  /** Counts a refused attempt, a locked pair's too (its lock is not extended). */
  async recordFailure(state: SignInState, now: Date): Promise<void> {
    const at = now.toISOString();
    const { maxFailedLogins, lockoutBaseMinutes, lockoutMaxMinutes } = this.deps.auth;
    const pair = state.pair ?? { usernameKey: state.usernameKey, source: state.source, failures: 0, lockouts: 0 };
    let next: SignInFailureRecord;
    if (this.isLocked(state, now)) {
      next = { ...pair, lockedUntil: state.pair?.lockedUntil ?? null, lastFailureAt: at };
    } else if (pair.failures + 1 < maxFailedLogins) {
      next = { ...pair, failures: pair.failures + 1, lockedUntil: null, lastFailureAt: at };
    } else {
      const lockouts = pair.lockouts + 1;
      const minutes = Math.min(lockoutBaseMinutes * 2 ** (lockouts - 1), lockoutMaxMinutes);
      next = {
        ...pair,
        failures: 0,
        lockouts,
        lockedUntil: new Date(now.getTime() + minutes * 60_000).toISOString(),
        lastFailureAt: at,
      };
    }
    const any: SignInFailureRecord = {
      usernameKey: state.usernameKey,
      source: ANY_SOURCE,
      failures: this.recentFailures(state.any, now) + 1,
      lockouts: 0,
      lockedUntil: null,
      lastFailureAt: at,
    };
    await this.deps.storage.transaction(async (tx) => {
      await tx.signInFailures.put(next);
      await tx.signInFailures.put(any);
    });
    await this.pruneNow(now);
  }

  /** A success from an address ends that pair's streak; the username's count across addresses decays on its own. */
  async recordSuccess(state: SignInState): Promise<void> {
    if (state.pair) await this.deps.storage.signInFailures.clear(state.usernameKey, state.source);
  }

  /** The username's failures across addresses in the current window: it closes after a quiet spell as long as a lockout. */
  private recentFailures(any: SignInFailureRecord | undefined, now: Date): number {
    if (!any) return 0;
    const quietMs = this.deps.auth.lockoutBaseMinutes * 60_000;
    return now.getTime() - Date.parse(any.lastFailureAt) > quietMs ? 0 : any.failures;
  }

  /** About hourly, forget usernames nobody has failed on for a day, so random names do not pile up. */
  private async pruneNow(now: Date): Promise<void> {
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    await this.deps.storage.signInFailures.deleteStale(new Date(now.getTime() - STALE_AFTER_MS).toISOString(), 1000);
  }
}
