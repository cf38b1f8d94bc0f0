import { changedFields } from '../audit/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError, PageQuery, type ProviderFailure } from '../kernel/index.js';
import { requireCapability } from '../licensing/index.js';
import { requestedScmFamily, scmFamily } from '../provider-registry/index.js';
import type { ProviderConnectionPatch, ProviderConnectionRecord } from './connection-records.js';
import { connectionNotFound, connectionSecretContext, scmConnectionConfig } from './open-scm-provider.js';
import { failureCategoryOf } from './provider-failures.js';
import { CreateProviderConnectionInput, PatchProviderConnectionInput } from './schemas.js';
import type { ScmDeps } from './scm-deps.js';
import {
  ALL_KIND_FIELDS,
  canonicalUrl,
  KIND_FIELDS,
  kindOfField,
  requireSupportedKind,
  urlKey,
} from './support-matrix.js';

/**
 * A stored secret is only ever used for what it was given for: the host, and for Entra client
 * credentials or a GitHub App the tenant, application and installation. Changing any of these needs
 * the secret again, so whoever may edit a connection cannot point its stored credential elsewhere.
 */
function secretRequiredAgain(changed: readonly string[]): string {
  if (changed.length === 1 && changed[0] === 'hostBaseUrl')
    return 'is required again when hostBaseUrl changes: a stored secret is only sent to the host it was given for.';
  const what =
    changed.length === 1 ? `${changed[0]} changes` : `${changed.slice(0, -1).join(', ')} or ${changed.at(-1)} change`;
  return `is required again when ${what}: a stored secret is only used for the host, tenant, application and installation it was given for.`;
}

/** The wire view: everything but the secret. */
export const providerConnectionView = (c: ProviderConnectionRecord) => ({
  id: c.id,
  clientId: c.clientId,
  providerFamily: c.providerFamily,
  authenticationKind: c.authenticationKind,
  hostBaseUrl: c.hostBaseUrl,
  displayName: c.displayName,
  isActive: c.isActive,
  oAuthTenantId: c.oAuthTenantId,
  oAuthClientId: c.oAuthClientId,
  hostedAppId: c.hostedAppId,
  hostedAppInstallationId: c.hostedAppInstallationId,
  hasSecret: c.sealedSecret.length > 0,
  verificationStatus: c.verificationStatus,
  lastVerifiedAt: c.lastVerifiedAt,
  lastVerificationError: c.lastVerificationError,
  lastVerificationFailureCategory: c.lastVerificationFailureCategory,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

/** The client's connection, or 404 (also for another client's, which must not be confirmed). */
export async function requireConnection(
  deps: ScmDeps,
  clientId: string,
  connectionId: string,
): Promise<ProviderConnectionRecord> {
  const connection = await deps.storage.providerConnections.findById(connectionId);
  if (!connection || connection.clientId !== clientId) throw connectionNotFound();
  return connection;
}

const NEVER_VERIFIED = {
  verificationStatus: 'neverVerified',
  lastVerifiedAt: null,
  lastVerificationError: null,
  lastVerificationFailureCategory: null,
} as const satisfies ProviderConnectionPatch;

/**
 * A client's second connection needs `multiple-scm-providers`; a second connection of the same family
 * on the same host is a duplicate (409) either way.
 */
export async function createProviderConnection(deps: ScmDeps, actor: Actor, clientId: string, input: unknown) {
  const req = CreateProviderConnectionInput.parse(input);
  requireSupportedKind(requestedScmFamily(deps.providers, req.providerFamily, 'providerFamily'), req);
  const client = await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  // Read before the transaction (storage work only inside); applied there once the count is known.
  const refusal = await requireCapability(deps, 'multiple-scm-providers').then(
    () => undefined,
    (error: unknown) => {
      if (MarginError.isInstance(error) && error.code === 'license_required') return error;
      throw error;
    },
  );
  const now = deps.clock.now().toISOString();
  const hostBaseUrl = canonicalUrl(req.hostBaseUrl);
  const id = deps.ids.uuid();
  const connection: ProviderConnectionRecord = {
    id,
    clientId,
    providerFamily: req.providerFamily,
    authenticationKind: req.authenticationKind,
    hostBaseUrl,
    hostKey: urlKey(hostBaseUrl),
    displayName: req.displayName ?? hostBaseUrl,
    isActive: req.isActive ?? true,
    oAuthTenantId: req.oAuthTenantId ?? null,
    oAuthClientId: req.oAuthClientId ?? null,
    hostedAppId: req.hostedAppId ?? null,
    hostedAppInstallationId: req.hostedAppInstallationId ?? null,
    sealedSecret: deps.secrets.seal(req.secret.trim(), connectionSecretContext(id)),
    ...NEVER_VERIFIED,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    if (refusal && (await tx.providerConnections.countForClient(clientId)) > 0) throw refusal;
    await tx.providerConnections.insert(connection);
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'scmConnection',
      verb: 'created',
      resourceId: id,
      summary: `created a ${req.providerFamily} connection (${req.authenticationKind})`,
    });
  });
  return providerConnectionView(connection);
}

export async function listProviderConnections(deps: ScmDeps, actor: Actor, clientId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await deps.authz.requireClient(actor, 'scm.discovery', clientId);
  const result = await deps.storage.providerConnections.listForClient(clientId, page);
  return { items: result.items.map(providerConnectionView), nextCursor: result.nextCursor };
}

export async function getProviderConnection(deps: ScmDeps, actor: Actor, clientId: string, connectionId: string) {
  await deps.authz.requireClient(actor, 'scm.discovery', clientId);
  return providerConnectionView(await requireConnection(deps, clientId, connectionId));
}

/**
 * Changes a connection. A new secret, host or kind-specific credential field resets verification; a
 * blank or absent secret keeps the stored one, except that a new host, tenant, client id, App id or
 * installation id needs the secret again. The authentication kind itself cannot change.
 */
export async function patchProviderConnection(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
  input: unknown,
) {
  const req = PatchProviderConnectionInput.parse(input);
  const client = await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  const current = await requireConnection(deps, clientId, connectionId);

  const allowed: readonly string[] = KIND_FIELDS[current.authenticationKind];
  const foreign = ALL_KIND_FIELDS.filter((field) => req[field] !== undefined && !allowed.includes(field));
  if (foreign.length > 0) {
    const issues = foreign.map((field) => ({
      path: field,
      message: `is only for authenticationKind '${kindOfField(field)}'`,
    }));
    throw MarginError.validation(`Invalid request: ${issues[0]?.path}: ${issues[0]?.message}`, issues);
  }

  const patch: ProviderConnectionPatch = { updatedAt: deps.clock.now().toISOString() };
  let credentialsChanged = false;
  if (req.displayName !== undefined) patch.displayName = req.displayName;
  if (req.isActive !== undefined) patch.isActive = req.isActive;
  if (req.secret?.trim()) {
    patch.sealedSecret = deps.secrets.seal(req.secret.trim(), connectionSecretContext(connectionId));
    credentialsChanged = true;
  }
  // What the stored secret is used for: the host, and the tenant, application or installation.
  const rebound: string[] = [];
  if (req.hostBaseUrl !== undefined) {
    const hostBaseUrl = canonicalUrl(req.hostBaseUrl);
    if (hostBaseUrl !== current.hostBaseUrl) {
      Object.assign(patch, { hostBaseUrl, hostKey: urlKey(hostBaseUrl) });
      rebound.push('hostBaseUrl');
    }
  }
  for (const field of ALL_KIND_FIELDS) {
    const value = req[field];
    if (value !== undefined && value !== current[field]) {
      Object.assign(patch, { [field]: value });
      rebound.push(field);
    }
  }
  if (rebound.length > 0) {
    // The stored secret was given for the old ones; only the caller who knows it may use it for new ones.
    if (patch.sealedSecret === undefined) {
      const message = secretRequiredAgain(rebound);
      throw MarginError.validation(`Invalid request: secret: ${message}`, [{ path: 'secret', message }]);
    }
    credentialsChanged = true;
  }
  if (credentialsChanged) Object.assign(patch, NEVER_VERIFIED);

  const updated = await deps.storage.transaction(async (tx) => {
    const next = await tx.providerConnections.update(connectionId, patch);
    if (!next) throw connectionNotFound();
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'scmConnection',
      verb: 'updated',
      resourceId: connectionId,
      // A blank secret keeps the stored one, so only a new one counts as a change.
      summary: changedFields({ ...req, secret: patch.sealedSecret === undefined ? undefined : 'replaced' }),
    });
    return next;
  });
  return providerConnectionView(updated);
}

/** Deletes the connection with its scopes and reviewer identity. */
export async function deleteProviderConnection(
  deps: ScmDeps,
  actor: Actor,
  clientId: string,
  connectionId: string,
): Promise<void> {
  const client = await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  const connection = await requireConnection(deps, clientId, connectionId);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.providerConnections.delete(connectionId))) throw connectionNotFound();
    await deps.audit.record(tx, actor, {
      client,
      resourceType: 'scmConnection',
      verb: 'deleted',
      resourceId: connectionId,
      summary: `deleted a ${connection.providerFamily} connection`,
    });
  });
}

/**
 * Asks the provider whether the stored credentials work and records the outcome. A refusal is an
 * outcome, not an error: it is stored with the provider's message and the connection is returned.
 */
export async function verifyProviderConnection(deps: ScmDeps, actor: Actor, clientId: string, connectionId: string) {
  await deps.authz.requireClient(actor, 'scm.connections.manage', clientId);
  const connection = await requireConnection(deps, clientId, connectionId);
  // Outside the try: an unregistered family is the caller's to fix (409), not the host's answer.
  const family = scmFamily(deps.providers, connection.providerFamily);
  const config = scmConnectionConfig(deps, connection);
  const now = deps.clock.now().toISOString();
  let outcome: ProviderConnectionPatch;
  try {
    await family.connect(config).verify();
    outcome = {
      verificationStatus: 'verified',
      lastVerifiedAt: now,
      lastVerificationError: null,
      lastVerificationFailureCategory: null,
    };
  } catch (error) {
    // Anything else is a bug of ours or an unreadable stored secret, not the provider's answer.
    if (!MarginError.isInstance(error) || error.code === 'internal') throw error;
    const category = failureCategoryOf(error);
    outcome = {
      verificationStatus: 'failed',
      lastVerifiedAt: now,
      lastVerificationError: verificationSummary(family.displayName, connection, category, error),
      lastVerificationFailureCategory: category,
    };
  }
  const updated = await deps.storage.transaction(async (tx) => {
    const current = await tx.providerConnections.findById(connectionId);
    if (!current) throw connectionNotFound();
    // Host or credentials changed while the provider answered: the answer is about the old ones.
    if (credentialsOf(current) !== credentialsOf(connection)) return current;
    return (await tx.providerConnections.update(connectionId, outcome)) ?? current;
  });
  return providerConnectionView(updated);
}

function credentialsOf(c: ProviderConnectionRecord): string {
  return JSON.stringify([
    c.hostBaseUrl,
    c.sealedSecret,
    c.oAuthTenantId,
    c.oAuthClientId,
    c.hostedAppId,
    c.hostedAppInstallationId,
  ]);
}

/**
 * What a failed verification stores: Margin's own summary of the category and HTTP status, never
 * the provider's answer. Whatever host a connection points at can put anything in its error body
 * (an internal service's banner, an echoed credential), and the stored error is shown to the
 * client's users.
 */
function verificationSummary(
  provider: string,
  connection: ProviderConnectionRecord,
  category: ProviderFailure,
  error: MarginError,
) {
  const status = typeof error.details.providerStatus === 'number' ? ` (HTTP ${error.details.providerStatus})` : '';
  switch (category) {
    case 'credentials':
      return `${provider} refused the credentials${status}.`;
    case 'authorization':
      return `${provider} accepted the credentials but they lack a permission this needs${status}.`;
    case 'notFound':
      return `${provider} found no such host, organization or API at ${connection.hostBaseUrl}${status}.`;
    case 'rateLimited':
    case 'quotaExceeded':
      return `${provider} limited the calls${status}; verify again later.`;
    case 'timeout':
      return `${provider} did not answer in time.`;
    case 'cancelled':
      return `The verification was stopped before ${provider} answered.`;
    case 'invalidResponse':
      return `${connection.hostBaseUrl} did not answer like ${provider}; check hostBaseUrl.`;
    case 'rejected':
      return `${provider} refused the call${status}.`;
    case 'egressRefused':
      return `Margin refused to call ${connection.hostBaseUrl}: it redirected elsewhere, or resolved to a link-local, reserved or cloud metadata address.`;
    case 'unavailable':
      return `${provider} could not be reached at ${connection.hostBaseUrl}${status}.`;
    case 'policy':
      return error.message;
  }
}
