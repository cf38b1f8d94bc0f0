import { type Clock, MarginError, type SettingsRepository, SYSTEM_TENANT_ID } from '../kernel/index.js';
import {
  CAPABILITY_FEATURES,
  CAPABILITY_KEYS,
  type CapabilityKey,
  type Edition,
  type OverrideState,
  REQUIRES_COMMERCIAL,
} from './capabilities.js';

const SETTINGS_KEY = 'licensing';

/** Where the edition is kept: any capability's storage slice that includes `settings` can read it. */
export interface LicensingRepositories {
  settings: SettingsRepository;
}

/** What reading and changing the licensing state needs. */
export interface LicensingDeps {
  storage: LicensingRepositories;
  clock: Clock;
}

/** Stored in the database, so the edition survives restarts and is the same on every host. */
export interface LicensingRecord {
  edition: Edition;
  activatedAt: string | null;
  overrides: Partial<Record<CapabilityKey, Exclude<OverrideState, 'default'>>>;
}

export interface CapabilityState {
  capability: CapabilityKey;
  requiresCommercial: boolean;
  overrideState: OverrideState;
  isAvailable: boolean;
  message: string;
}

export const COMMUNITY: LicensingRecord = { edition: 'Community', activatedAt: null, overrides: {} };

export async function readLicensing(deps: Pick<LicensingDeps, 'storage'>): Promise<LicensingRecord> {
  const stored = (await deps.storage.settings.get(SETTINGS_KEY)) as LicensingRecord | undefined;
  return stored ?? COMMUNITY;
}

export async function writeLicensing(deps: LicensingDeps, record: LicensingRecord): Promise<void> {
  await deps.storage.settings.put(SETTINGS_KEY, record, deps.clock.now().toISOString());
}

export function capabilityState(record: LicensingRecord, capability: CapabilityKey): CapabilityState {
  const override = record.overrides[capability];
  const commercial = record.edition === 'Commercial';
  const isAvailable = (commercial || !REQUIRES_COMMERCIAL[capability]) && override !== 'disabled';
  const feature = CAPABILITY_FEATURES[capability];
  const message = isAvailable
    ? 'Available.'
    : commercial
      ? `${feature} is switched off by an administrator override (${capability}).`
      : `${feature} needs a Commercial license (${capability}).`;
  return {
    capability,
    requiresCommercial: REQUIRES_COMMERCIAL[capability],
    overrideState: override ?? 'default',
    isAvailable,
    message,
  };
}

export function allCapabilityStates(record: LicensingRecord): CapabilityState[] {
  return CAPABILITY_KEYS.map((key) => capabilityState(record, key));
}

/** The one gate every licensed feature goes through: 409 `license_required` naming the capability. */
export async function requireCapability(
  deps: Pick<LicensingDeps, 'storage'>,
  capability: CapabilityKey,
): Promise<void> {
  const state = capabilityState(await readLicensing(deps), capability);
  if (!state.isAvailable) throw MarginError.licenseRequired(capability, state.message);
}

/**
 * Multi-tenancy is gated by the edition itself, not by an overridable capability (spec: Community
 * has only the System tenant). Refusals name `multi-tenancy` so clients can tell them apart.
 */
export async function requireMultiTenancy(deps: Pick<LicensingDeps, 'storage'>, what: string): Promise<void> {
  if ((await readLicensing(deps)).edition === 'Community') {
    throw MarginError.licenseRequired(
      'multi-tenancy',
      `${what} needs a Commercial license (multi-tenancy): Community has only the System tenant.`,
    );
  }
}

/** Whether a tenant's clients are in reach: the System tenant's always, others' only in Commercial. */
export async function isTenantInReach(deps: Pick<LicensingDeps, 'storage'>, tenantId: string): Promise<boolean> {
  return tenantId === SYSTEM_TENANT_ID || (await readLicensing(deps)).edition === 'Commercial';
}

export async function isCapabilityAvailable(
  deps: Pick<LicensingDeps, 'storage'>,
  capability: CapabilityKey,
): Promise<boolean> {
  return capabilityState(await readLicensing(deps), capability).isAvailable;
}
