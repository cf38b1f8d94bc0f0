import { type Clock, type GlobalRole, TtlCache } from '../kernel/index.js';
import type { ClientAccessCache } from '../tenancy/index.js';
import type { UsersRepository } from './user-record.js';

export interface UserState {
  id: string;
  username: string;
  globalRole: GlobalRole;
  isActive: boolean;
}

/**
 * What every authenticated request looks up: is the user still active, with which global role.
 * Kept for a couple of seconds so a hot read costs one query. Changes made on this host take effect
 * at once (the use cases that make them forget the user); changes made on another host within `ttlMs`.
 */
export class UserStateCache {
  private readonly users: TtlCache<string, UserState | undefined>;

  constructor(
    private readonly repository: () => Pick<UsersRepository, 'findById'>,
    clock: Clock,
    ttlMs: number,
  ) {
    this.users = new TtlCache(clock, ttlMs);
  }

  user(userId: string): Promise<UserState | undefined> {
    return this.users.get(userId, async () => {
      const u = await this.repository().findById(userId);
      return u && { id: u.id, username: u.username, globalRole: u.globalRole, isActive: u.isActive };
    });
  }

  forget(userId: string): void {
    this.users.delete(userId);
  }
}

/** After a change to a user's account or roles: forget both what they are and what they may reach. */
export function forgetUser(deps: { userStates: UserStateCache; clientAccess: ClientAccessCache }, userId: string) {
  deps.userStates.forget(userId);
  deps.clientAccess.forgetUser(userId);
}
