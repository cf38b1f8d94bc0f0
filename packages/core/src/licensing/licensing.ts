import type { AuditRepositories, AuditTrail } from '../audit/index.js';
import { type Actor, MarginError, requirePlatformAdmin, type StorageSlice } from '../kernel/index.js';
import { isCapabilityKey, REQUIRES_COMMERCIAL } from './capabilities.js';
import {
  allCapabilityStates,
  type LicensingDeps,
  type LicensingRecord,
  type LicensingRepositories,
  readLicensing,
  writeLicensing,
} from './licensing-state.js';
import { type LicensingViewBody, PatchLicensingInput } from './schemas.js';

/** Changing the licensing state also records who changed it. */
export interface LicensingAdminDeps extends LicensingDeps {
  storage: StorageSlice<LicensingRepositories & AuditRepositories>;
  audit: AuditTrail;
}

const view = (record: LicensingRecord): LicensingViewBody => ({
  edition: record.edition,
  activatedAt: record.activatedAt,
  capabilities: allCapabilityStates(record),
});

export async function getLicensing(deps: LicensingDeps, actor: Actor) {
  requirePlatformAdmin(actor);
  return view(await readLicensing(deps));
}

/**
 * Sets the edition and capability overrides. Dropping to Community deletes nothing and is never
 * refused: configurations and overrides stay stored, and idle or without effect, until their
 * capability is available again. A commercial capability cannot be newly enabled while Community; an
 * override already stored as enabled, sent back unchanged, is accepted and kept.
 */
export async function patchLicensing(deps: LicensingAdminDeps, actor: Actor, input: unknown) {
  requirePlatformAdmin(actor);
  const req = PatchLicensingInput.parse(input);
  const current = await readLicensing(deps);
  const overrides = { ...current.overrides };
  for (const entry of req.capabilityOverrides ?? []) {
    const key = entry.capability ?? entry.key ?? '';
    if (!isCapabilityKey(key))
      throw MarginError.validation(`Unknown capability '${key}'.`, [
        { path: 'capabilityOverrides', message: `Unknown capability '${key}'.` },
      ]);
    // Only newly enabling one is refused. An override already stored as enabled may come back in the
    // same request (the console sends every override with the edition): it is kept, without effect.
    if (
      entry.overrideState === 'enabled' &&
      req.edition === 'Community' &&
      REQUIRES_COMMERCIAL[key] &&
      current.overrides[key] !== 'enabled'
    ) {
      throw MarginError.licenseRequired(
        key,
        `Enabling ${key} needs the Commercial edition; the installation is Community.`,
      );
    }
    if (entry.overrideState === 'default') delete overrides[key];
    else overrides[key] = entry.overrideState;
  }
  const now = deps.clock.now().toISOString();
  const record: LicensingRecord = {
    edition: req.edition,
    activatedAt: req.edition === current.edition ? current.activatedAt : req.edition === 'Commercial' ? now : null,
    overrides,
  };
  await deps.storage.transaction(async (tx) => {
    await writeLicensing({ ...deps, storage: tx }, record);
    await deps.audit.record(tx, actor, {
      verb: 'updated',
      resourceType: 'licensing',
      resourceId: 'installation',
      summary: `edition ${record.edition}; overrides ${overrideSummary(record)}`,
    });
  });
  return view(record);
}

const overrideSummary = (record: LicensingRecord) => {
  const entries = Object.entries(record.overrides).map(([key, state]) => `${key}=${state}`);
  return entries.length === 0 ? 'none' : entries.sort().join(', ');
};
