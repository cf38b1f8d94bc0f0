import type { Actor, Clock, Ids } from '../kernel/index.js';
import type { AuditRepositories } from './audit-deps.js';
import type { AuditEntryRecord } from './audit-record.js';

/**
 * A change to record; the trail adds the id, the time and the actor, and names the action
 * `<resourceType>.<verb>` so every entry reads the same way. A client's change passes the client,
 * which places the entry in its tenant too.
 */
export type AuditChange = Omit<AuditEntryRecord, 'id' | 'at' | 'actorUserId' | 'tenantId' | 'clientId' | 'action'> & {
  verb: string;
  client?: { id: string; tenantId: string } | undefined;
  tenantId?: string | null | undefined;
  clientId?: string | null | undefined;
};

/**
 * What the other capabilities' use cases call after a change. `into` is the transaction's
 * repositories where the change runs in one, so the entry lands (or not) with the change itself.
 */
export interface AuditTrail {
  record(into: AuditRepositories, actor: Actor, change: AuditChange): Promise<void>;
}

export function createAuditTrail(deps: { clock: Clock; ids: Ids }): AuditTrail {
  return {
    async record(into, actor, { verb, client, tenantId, clientId, ...change }) {
      await into.auditEntries.insert({
        ...change,
        id: deps.ids.uuid(),
        at: deps.clock.now().toISOString(),
        tenantId: client?.tenantId ?? tenantId ?? null,
        clientId: client?.id ?? clientId ?? null,
        actorUserId: actor.userId,
        action: `${change.resourceType}.${verb}`,
      });
    },
  };
}

/**
 * A summary of which fields a patch sets: names only, never values, so a summary can say that a
 * secret was replaced without ever holding it.
 */
export function changedFields(patch: Record<string, unknown>): string {
  const names = Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name)
    .sort();
  return names.length === 0 ? 'nothing changed' : `changed ${names.join(', ')}`;
}
