import type { Schemas } from '@margin/sdk-client';
import { createContext, useContext } from 'react';
import { Outlet, useParams } from 'react-router';
import { api } from '../api/client.js';
import { administers, useMe } from '../api/me.js';
import { Loaded } from '../ui/display.js';
import { useResource } from '../ui/use-resource.js';

interface ClientState {
  client: Schemas['Client'];
  /** The user may configure it (ClientAdministrator or above). */
  canAdminister: boolean;
}

const ClientContext = createContext<ClientState | undefined>(undefined);

export function useClient(): ClientState {
  const state = useContext(ClientContext);
  if (!state) throw new Error('useClient outside /clients/:clientId');
  return state;
}

/** Loads the client of the URL once for every page under `/clients/:clientId`. */
export function ClientLayout() {
  const { clientId = '' } = useParams();
  const { me } = useMe();
  const resource = useResource(() => api.tenancy.getClient(clientId), [clientId]);
  return (
    <Loaded resource={resource}>
      {(client) => (
        <ClientContext.Provider value={{ client, canAdminister: administers(me, client) }}>
          <Outlet />
        </ClientContext.Provider>
      )}
    </Loaded>
  );
}
