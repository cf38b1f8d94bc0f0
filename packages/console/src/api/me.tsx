import type { Schemas } from '@margin/sdk-client';
import { createContext, useContext } from 'react';

export type Me = Schemas['Me'];

interface MeState {
  me: Me;
}

export const MeContext = createContext<MeState | undefined>(undefined);

/** The signed-in user, their roles and the installation's edition (from `/auth/me`). */
export function useMe(): MeState {
  const state = useContext(MeContext);
  if (!state) throw new Error('useMe outside the signed-in app');
  return state;
}

/** Whether the user may configure this client; the API decides in the end, this only spares dead ends. */
export function administers(me: Me, client: { id: string; tenantId: string } | undefined): boolean {
  if (me.globalRole === 'platformAdmin') return true;
  if (!client) return false;
  const clientRoles = me.clientRoles as Record<string, string>;
  const tenantRoles = me.tenantRoles as Record<string, string>;
  return clientRoles[client.id] === 'ClientAdministrator' || tenantRoles[client.tenantId] === 'TenantAdministrator';
}
