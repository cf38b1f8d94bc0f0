import type { Schemas } from '@margin/sdk-client';
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { Outlet, useParams } from 'react-router';
import { api } from '../api/client.js';
import { administers, useMe } from '../api/me.js';
import { queryKeys } from '../api/query-keys.js';
import { Loaded } from '../ui/display.js';

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
  const query = useQuery({
    queryKey: queryKeys.clientDetails(clientId),
    queryFn: () => api.tenancy.getClient(clientId),
  });
  return (
    <Loaded query={query}>
      {(client) => (
        <ClientContext.Provider value={{ client, canAdminister: administers(me, client) }}>
          <Outlet />
        </ClientContext.Provider>
      )}
    </Loaded>
  );
}
