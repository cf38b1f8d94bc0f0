import type { Clock, GlobalRole } from '../kernel/index.js';
import { TtlCache } from '../kernel/index.js';
import type { StorageV1 } from '../storage/index.js';
import type { ClientAccess } from '../tenancy/index.js';

export interface UserState {
  id: string;
  username: string;
  globalRole: GlobalRole;
  isActive: boolean;
}

/**
 * What every authenticated request looks up: is the user still active, and what may they do on the
 * client. Kept for a couple of seconds so a hot read costs one query, not three. Changes made on
 * this host take effect at once (the use cases that make them forget the entries); changes made on
 * another host take effect within `ttlMs`.
 */
export class AccessCache {
  private readonly users: TtlCache<string, UserState | undefined>;
  private readonly access: TtlCache<string, ClientAccess | undefined>;

  constructor(
    private readonly storage: StorageV1,
    clock: Clock,
    ttlMs: number,
  ) {
    this.users = new TtlCache(clock, ttlMs);
    this.access = new TtlCache(clock, ttlMs);
  }

  user(userId: string): Promise<UserState | undefined> {
    return this.users.get(userId, async () => {
      const u = await this.storage.users.findById(userId);
      return u && { id: u.id, username: u.username, globalRole: u.globalRole, isActive: u.isActive };
    });
  }

  clientAccess(clientId: string, userId: string): Promise<ClientAccess | undefined> {
    return this.access.get(`${clientId}/${userId}`, () => this.storage.clients.findAccess(clientId, userId));
  }

  forgetUser(userId: string): void {
    this.users.delete(userId);
    this.access.deleteWhere((key) => key.endsWith(`/${userId}`));
  }

  forgetClient(clientId: string): void {
    this.access.deleteWhere((key) => key.startsWith(`${clientId}/`));
  }

  /** After a change whose reach is wide (a tenant role): forget every access entry. */
  forgetAllAccess(): void {
    this.access.clear();
  }
}
