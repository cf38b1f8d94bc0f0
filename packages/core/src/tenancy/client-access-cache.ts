import { type Clock, TtlCache } from '../kernel/index.js';
import type { ClientAccess, ClientsRepository } from './tenancy-records.js';

/**
 * What every authorized request looks up: a client and the roles one user holds on it. Kept for a
 * couple of seconds so a hot read costs one query. Changes made on this host take effect at once
 * (the use cases that make them forget the entries); changes made on another host within `ttlMs`.
 */
export class ClientAccessCache {
  private readonly access: TtlCache<string, ClientAccess | undefined>;

  constructor(
    private readonly clients: () => Pick<ClientsRepository, 'findAccess'>,
    clock: Clock,
    ttlMs: number,
  ) {
    this.access = new TtlCache(clock, ttlMs);
  }

  clientAccess(clientId: string, userId: string): Promise<ClientAccess | undefined> {
    return this.access.get(`${clientId}/${userId}`, () => this.clients().findAccess(clientId, userId));
  }

  /** After a change to the user's roles or account. */
  forgetUser(userId: string): void {
    this.access.deleteWhere((key) => key.endsWith(`/${userId}`));
  }

  /** After a change to a tenant (deactivated, say): every entry carries its tenant's state. */
  forgetAll(): void {
    this.access.clear();
  }

  /** After a change to the client itself (renamed, deactivated). */
  forgetClient(clientId: string): void {
    this.access.deleteWhere((key) => key.startsWith(`${clientId}/`));
  }
}
