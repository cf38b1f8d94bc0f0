import type { AiProviderKindV1 } from '../ai-model/index.js';
import type { Actor } from '../kernel/index.js';
import { MarginError } from '../kernel/index.js';
import { type LicensingRepositories, readLicensing, requireMultiTenancy } from '../licensing/index.js';
import type { AiDeps, AiRepositories, ResolveDeps } from './ai-deps.js';
import type { AiConnectionRecord, TenantAiPolicyRecord } from './ai-records.js';
import { TenantAiPolicyInput } from './schemas.js';

/** What a tenant without a stored policy has: every kind, every host. */
const UNRESTRICTED = { permittedProviderKinds: null, permittedHosts: null } as const;

type PolicyRules = Pick<TenantAiPolicyRecord, 'permittedProviderKinds' | 'permittedHosts'>;

export const tenantAiPolicyView = (tenantId: string, p: TenantAiPolicyRecord | undefined) => ({
  tenantId,
  permittedProviderKinds: p?.permittedProviderKinds ? [...p.permittedProviderKinds] : null,
  permittedHosts: p?.permittedHosts ? [...p.permittedHosts] : null,
  isRestricted: isRestricted(p ?? UNRESTRICTED),
  updatedAt: p?.updatedAt ?? null,
});

const isRestricted = (p: PolicyRules) => p.permittedProviderKinds !== null || p.permittedHosts !== null;

/**
 * The policy in force for a tenant. Per-tenant configuration is Commercial: in Community a stored
 * policy stays idle, as other tenant configuration does, until the edition returns.
 */
export async function policyInForce(
  repos: Pick<AiRepositories, 'tenantAiPolicies'> & LicensingRepositories,
  tenantId: string,
): Promise<TenantAiPolicyRecord | undefined> {
  if ((await readLicensing({ storage: repos })).edition !== 'Commercial') return undefined;
  return repos.tenantAiPolicies.find(tenantId);
}

/** The policy in force for the tenant that owns a connection, itself or through its client. */
async function policyOfConnection(
  deps: Pick<ResolveDeps, 'storage'>,
  c: Pick<AiConnectionRecord, 'clientId' | 'ownerTenantId'>,
): Promise<TenantAiPolicyRecord | undefined> {
  if (c.ownerTenantId !== null) return policyInForce(deps.storage, c.ownerTenantId);
  const client = c.clientId === null ? undefined : await deps.storage.clients.findById(c.clientId);
  return client ? policyInForce(deps.storage, client.tenantId) : undefined;
}

/**
 * Where a profile's calls go: its `baseUrl`, else the kind's public endpoint. Undefined when
 * neither names a host (a regional default such as `<region>`), which a host rule cannot permit.
 */
export function connectionHost(
  kind: AiProviderKindV1 | undefined,
  c: Pick<AiConnectionRecord, 'baseUrl'>,
): string | undefined {
  const url = c.baseUrl.trim() || (kind?.defaultEndpoint ?? '').trim().split(/\s+/)[0] || '';
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/** An entry is an exact host, or `.suffix` for any host below it (not the suffix itself). */
export function hostPermitted(host: string, permitted: readonly string[]): boolean {
  return permitted.some((entry) => (entry.startsWith('.') ? host.endsWith(entry) : host === entry));
}

/** Why the policy refuses a profile, or undefined when it permits it. */
export function policyViolation(
  policy: PolicyRules | undefined,
  kind: AiProviderKindV1 | undefined,
  c: Pick<AiConnectionRecord, 'providerKind' | 'baseUrl'>,
): { path: 'providerKind' | 'baseUrl'; message: string } | undefined {
  if (!policy) return undefined;
  if (policy.permittedProviderKinds && !policy.permittedProviderKinds.includes(c.providerKind)) {
    return {
      path: 'providerKind',
      message: `The tenant AI policy does not permit the provider kind ${c.providerKind}.`,
    };
  }
  if (policy.permittedHosts) {
    const host = connectionHost(kind, c);
    if (!host || !hostPermitted(host, policy.permittedHosts)) {
      return {
        path: 'baseUrl',
        message: host
          ? `The tenant AI policy does not permit the host ${host}.`
          : 'The tenant AI policy permits only listed hosts: set baseUrl to one of them.',
      };
    }
  }
  return undefined;
}

/** At save: 400 validation_failed naming the policy. */
export function assertPolicyPermitsProfile(
  policy: PolicyRules | undefined,
  kind: AiProviderKindV1 | undefined,
  c: Pick<AiConnectionRecord, 'providerKind' | 'baseUrl'>,
): void {
  const violation = policyViolation(policy, kind, c);
  if (violation) throw MarginError.invalid([violation]);
}

/**
 * At use, before the credential is opened: a profile saved before the policy tightened fails its
 * call as a provider failure of category `policy`, so a verification or a review fails naming it.
 */
export async function assertPolicyPermitsUse(
  deps: Pick<ResolveDeps, 'storage'>,
  kind: AiProviderKindV1 | undefined,
  c: AiConnectionRecord,
): Promise<void> {
  const violation = policyViolation(await policyOfConnection(deps, c), kind, c);
  if (violation) throw MarginError.provider('policy', `${violation.message} The AI connection cannot be used.`);
}

export async function getTenantAiPolicy(deps: AiDeps, actor: Actor, tenantId: string) {
  await deps.authz.requireTenant(actor, 'tenants.aiPolicy.read', tenantId);
  return tenantAiPolicyView(tenantId, await deps.storage.tenantAiPolicies.find(tenantId));
}

/** Per-tenant configuration is Commercial (multi-tenancy); only the platform administrator sets it. */
export async function putTenantAiPolicy(deps: AiDeps, actor: Actor, tenantId: string, input: unknown) {
  deps.authz.requirePlatform(actor, 'tenants.aiPolicy.manage');
  const req = TenantAiPolicyInput.parse(input);
  if (!(await deps.storage.tenants.findById(tenantId))) throw MarginError.notFound('Tenant not found.');
  await requireMultiTenancy(deps, 'A tenant AI policy');
  const record: TenantAiPolicyRecord = {
    tenantId,
    permittedProviderKinds: req.permittedProviderKinds,
    permittedHosts: req.permittedHosts,
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.storage.transaction(async (tx) => {
    await tx.tenantAiPolicies.save(record);
    await deps.audit.record(tx, actor, {
      tenantId,
      verb: 'updated',
      resourceType: 'policy',
      resourceId: `${tenantId}/ai-policy`,
      summary: policySummary(record),
    });
  });
  return tenantAiPolicyView(tenantId, record);
}

const listOrAny = (values: readonly string[] | null) =>
  values === null ? 'any' : values.length === 0 ? 'none' : values.join(', ');

function policySummary(p: PolicyRules): string {
  return `set the AI policy: provider kinds ${listOrAny(p.permittedProviderKinds)}; hosts ${listOrAny(p.permittedHosts)}`;
}
