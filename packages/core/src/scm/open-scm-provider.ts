import { MarginError, sealedSecretContext } from '../kernel/index.js';
import { scmFamily } from '../provider-registry/index.js';
import type { ScmConnectionConfig, ScmProviderFamilyV1, ScmProviderV1 } from '../scm-provider/index.js';
import type { ProviderConnectionRecord, ProviderScopeRecord } from './connection-records.js';
import type { ScmConnectDeps, ScmDeps } from './scm-deps.js';

/** A stored connection and an adapter connected with its credentials. */
export interface OpenedScmConnection {
  connection: ProviderConnectionRecord;
  /** The connection's family as registered: its declared facts. */
  family: ScmProviderFamilyV1;
  provider: ScmProviderV1;
}

/** A client's scope, its connection, and an adapter connected with the connection's credentials. */
export interface OpenedScmScope extends OpenedScmConnection {
  scope: ProviderScopeRecord;
}

type OpenDeps = ScmConnectDeps;

export const connectionNotFound = () => MarginError.notFound('Provider connection not found.');
export const scopeNotFound = () => MarginError.notFound('Provider scope not found.');

export const connectionSecretContext = (connectionId: string) =>
  sealedSecretContext('provider-connection.secret', connectionId);

/** What the family's adapter needs, with the secret opened. Keep the result out of logs and errors. */
export function scmConnectionConfig(
  deps: Pick<ScmDeps, 'secrets'>,
  connection: ProviderConnectionRecord,
): ScmConnectionConfig {
  return {
    family: connection.providerFamily,
    authenticationKind: connection.authenticationKind,
    hostBaseUrl: connection.hostBaseUrl,
    secret: deps.secrets.open(connection.sealedSecret, connectionSecretContext(connection.id)),
    oAuthTenantId: connection.oAuthTenantId ?? undefined,
    oAuthClientId: connection.oAuthClientId ?? undefined,
    hostedAppId: connection.hostedAppId ?? undefined,
    hostedAppInstallationId: connection.hostedAppInstallationId ?? undefined,
  };
}

/** Connects the family's adapter for a connection record already in hand. */
export function connectScmProvider(
  deps: Pick<ScmDeps, 'providers' | 'secrets'>,
  connection: ProviderConnectionRecord,
): ScmProviderV1 {
  return openConnection(deps, connection).provider;
}

function openConnection(
  deps: Pick<ScmDeps, 'providers' | 'secrets'>,
  connection: ProviderConnectionRecord,
): OpenedScmConnection {
  const family = scmFamily(deps.providers, connection.providerFamily);
  return { connection, family, provider: family.connect(scmConnectionConfig(deps, connection)) };
}

/**
 * A stored connection with a connected adapter, for work that runs on a connection (the review
 * worker, triggers). No authorization: callers decide who may reach the connection. `clientId`, when
 * given, must own the connection (404 otherwise); `requireActive` refuses an inactive one with 400.
 */
export async function openScmProvider(
  deps: OpenDeps,
  connectionId: string,
  options: { clientId?: string | undefined; requireActive?: boolean | undefined } = {},
): Promise<OpenedScmConnection> {
  const connection = await deps.storage.providerConnections.findById(connectionId);
  if (!connection || (options.clientId !== undefined && connection.clientId !== options.clientId)) {
    throw connectionNotFound();
  }
  if (options.requireActive && !connection.isActive) {
    throw MarginError.validation('The provider connection is inactive; activate it to use it.');
  }
  return openConnection(deps, connection);
}

/**
 * One of a client's scopes (an `organizationScopeId`) with its connection and a connected adapter,
 * read in one query. No authorization. Unknown, or another client's: 404. Unless `requireUsable` is
 * false, a disabled scope or an inactive connection is refused with 400 saying which.
 */
export async function scopeWithConnection(
  deps: OpenDeps,
  clientId: string,
  scopeId: string,
  options: { requireUsable?: boolean | undefined } = {},
): Promise<OpenedScmScope> {
  const found = await deps.storage.providerScopes.findWithConnection(scopeId);
  if (!found || found.scope.clientId !== clientId) throw scopeNotFound();
  if (options.requireUsable !== false) {
    if (!found.scope.isEnabled) {
      throw MarginError.validation('The provider scope is disabled; enable it to use it.', [
        { path: 'organizationScopeId', message: 'names a disabled scope' },
      ]);
    }
    if (!found.connection.isActive) {
      throw MarginError.validation('The scope’s provider connection is inactive; activate it to use it.', [
        { path: 'organizationScopeId', message: 'belongs to an inactive provider connection' },
      ]);
    }
  }
  return { ...openConnection(deps, found.connection), scope: found.scope };
}
