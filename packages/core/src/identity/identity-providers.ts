import { changedFields } from '../audit/index.js';
import { egressRefusalOf } from '../egress/index.js';
import { type Actor, MarginError, PageQuery, sealedSecretContext } from '../kernel/index.js';
import { requireCapability } from '../licensing/index.js';
import type { IdentityDeps } from './identity-deps.js';
import type { IdentityProviderPatch, IdentityProviderRecord } from './identity-provider-record.js';
import { CreateIdentityProviderInput, PatchIdentityProviderInput, SsoProvidersQuery } from './schemas.js';

export const identityProviderSecretContext = (providerId: string) =>
  sealedSecretContext('identity-provider.clientSecret', providerId);

const providerNotFound = () => MarginError.notFound('Identity provider not found.');

/** The secret is write-only: a view says whether one is set, never what it is. */
export const identityProviderView = (p: IdentityProviderRecord) => ({
  id: p.id,
  tenantId: p.tenantId,
  displayName: p.displayName,
  issuerUrl: p.issuerUrl,
  clientId: p.clientId,
  hasClientSecret: p.sealedClientSecret !== null,
  allowedEmailDomains: p.allowedEmailDomains,
  autoCreateUsers: p.autoCreateUsers,
  defaultClientRole: p.defaultClientRole,
  isEnabled: p.isEnabled,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** Who may manage a tenant's providers, and that the installation may use them at all. */
async function requireProviderAdmin(deps: IdentityDeps, actor: Actor, tenantId: string): Promise<void> {
  await deps.authz.requireTenant(actor, 'tenants.identityProviders.manage', tenantId);
  // Community lacks the capability (it needs a Commercial license), so this also keeps Community out.
  await requireCapability(deps, 'sso-authentication');
}

/** The issuer is an administrator's URL the host will call: refused at save as the adapters' URLs are. */
function checkIssuer(deps: IdentityDeps, issuerUrl: string | undefined): void {
  if (issuerUrl === undefined) return;
  const refusal = egressRefusalOf(new URL(issuerUrl), deps.allowPrivateEgress);
  if (refusal) throw MarginError.invalid([{ path: 'issuerUrl', message: `issuerUrl ${refusal.problem}` }]);
}

/** Issuers compare without a trailing slash, so `https://x/` and `https://x` are one issuer. */
const normalIssuer = (url: string) => url.replace(/\/+$/, '');

export async function createIdentityProvider(deps: IdentityDeps, actor: Actor, tenantId: string, input: unknown) {
  const req = CreateIdentityProviderInput.parse(input);
  await requireProviderAdmin(deps, actor, tenantId);
  checkIssuer(deps, req.issuerUrl);
  const now = deps.clock.now().toISOString();
  const id = deps.ids.uuid();
  const provider: IdentityProviderRecord = {
    id,
    tenantId,
    displayName: req.displayName,
    issuerUrl: normalIssuer(req.issuerUrl),
    clientId: req.clientId,
    sealedClientSecret: req.clientSecret
      ? deps.secrets.seal(req.clientSecret, identityProviderSecretContext(id))
      : null,
    allowedEmailDomains: [...new Set(req.allowedEmailDomains)],
    autoCreateUsers: req.autoCreateUsers ?? false,
    defaultClientRole: req.defaultClientRole ?? 'none',
    isEnabled: req.isEnabled ?? true,
    createdAt: now,
    updatedAt: now,
  };
  await deps.storage.transaction(async (tx) => {
    await tx.identityProviders.insert(provider);
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: 'created',
      resourceType: 'identityProvider',
      resourceId: id,
      summary: `created identity provider '${provider.displayName}' (${provider.issuerUrl})`,
    });
  });
  return identityProviderView(provider);
}

export async function listIdentityProviders(deps: IdentityDeps, actor: Actor, tenantId: string, query: unknown) {
  const page = PageQuery.parse(query);
  await requireProviderAdmin(deps, actor, tenantId);
  const found = await deps.storage.identityProviders.listForTenant(tenantId, page);
  return { items: found.items.map(identityProviderView), nextCursor: found.nextCursor };
}

/** The provider, when it is the tenant's (another tenant's provider is as good as missing). */
async function tenantsProvider(deps: IdentityDeps, tenantId: string, providerId: string) {
  const provider = await deps.storage.identityProviders.findById(providerId);
  if (!provider || provider.tenantId !== tenantId) throw providerNotFound();
  return provider;
}

export async function patchIdentityProvider(
  deps: IdentityDeps,
  actor: Actor,
  tenantId: string,
  providerId: string,
  input: unknown,
) {
  const req = PatchIdentityProviderInput.parse(input);
  await requireProviderAdmin(deps, actor, tenantId);
  checkIssuer(deps, req.issuerUrl);
  const current = await tenantsProvider(deps, tenantId, providerId);
  const patch: IdentityProviderPatch = { updatedAt: deps.clock.now().toISOString() };
  if (req.displayName !== undefined) patch.displayName = req.displayName;
  if (req.issuerUrl !== undefined) patch.issuerUrl = normalIssuer(req.issuerUrl);
  if (req.clientId !== undefined) patch.clientId = req.clientId;
  if (req.clientSecret !== undefined) {
    patch.sealedClientSecret =
      req.clientSecret === null ? null : deps.secrets.seal(req.clientSecret, identityProviderSecretContext(providerId));
  }
  if (req.allowedEmailDomains !== undefined) patch.allowedEmailDomains = [...new Set(req.allowedEmailDomains)];
  if (req.autoCreateUsers !== undefined) patch.autoCreateUsers = req.autoCreateUsers;
  if (req.defaultClientRole !== undefined) patch.defaultClientRole = req.defaultClientRole;
  if (req.isEnabled !== undefined) patch.isEnabled = req.isEnabled;
  const updated = await deps.storage.transaction(async (tx) => {
    const next = await tx.identityProviders.update(providerId, patch);
    if (!next) throw providerNotFound();
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: 'updated',
      resourceType: 'identityProvider',
      resourceId: providerId,
      // Names only: `clientSecret` says it was set, never what to.
      summary: `${changedFields(req)} of identity provider '${current.displayName}'`,
    });
    return next;
  });
  return identityProviderView(updated);
}

export async function deleteIdentityProvider(deps: IdentityDeps, actor: Actor, tenantId: string, providerId: string) {
  await requireProviderAdmin(deps, actor, tenantId);
  const current = await tenantsProvider(deps, tenantId, providerId);
  await deps.storage.transaction(async (tx) => {
    if (!(await tx.identityProviders.delete(providerId))) throw providerNotFound();
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: 'deleted',
      resourceType: 'identityProvider',
      resourceId: providerId,
      summary: `deleted identity provider '${current.displayName}'`,
    });
  });
}

/**
 * For the sign-in page, unauthenticated: the enabled providers of an active tenant named by its slug.
 * An unknown or deactivated tenant lists nothing, so the answer confirms no tenant exists.
 */
export async function listSignInProviders(deps: IdentityDeps, query: unknown) {
  const { tenant: slug } = SsoProvidersQuery.parse(query);
  await requireCapability(deps, 'sso-authentication');
  const tenant = await deps.storage.tenants.findBySlug(slug.toLowerCase());
  if (!tenant?.isActive) return { providers: [] };
  const providers: Array<{ id: string; displayName: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await deps.storage.identityProviders.listForTenant(tenant.id, { limit: 100, cursor });
    for (const p of page.items) if (p.isEnabled) providers.push({ id: p.id, displayName: p.displayName });
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { providers };
}
