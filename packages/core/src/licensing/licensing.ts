import type { CoreDeps } from '../deps.js';
import { MarginError } from '../errors.js';
import type { Actor } from '../identity/actor.js';
import { type CapabilityKey, isCapabilityKey } from './capabilities.js';
import { allCapabilityStates, type LicensingRecord, readLicensing, writeLicensing } from './licensing-state.js';
import { PatchLicensingInput } from './schemas.js';

const view = (record: LicensingRecord) => ({
  edition: record.edition,
  activatedAt: record.activatedAt,
  capabilities: allCapabilityStates(record),
});

export async function getLicensing(deps: CoreDeps, actor: Actor) {
  deps.authz.requirePlatform(actor, 'licensing.manage');
  return view(await readLicensing(deps));
}

/**
 * Sets the edition and capability overrides. Dropping to Community deletes nothing: configurations
 * stay stored and idle until their capability is available again. A commercial capability cannot be
 * enabled while the edition is Community.
 */
export async function patchLicensing(deps: CoreDeps, actor: Actor, input: unknown) {
  deps.authz.requirePlatform(actor, 'licensing.manage');
  const req = PatchLicensingInput.parse(input);
  const current = await readLicensing(deps);
  const overrides = { ...current.overrides };
  for (const entry of req.capabilityOverrides ?? []) {
    const key = entry.capability ?? entry.key ?? '';
    if (!isCapabilityKey(key))
      throw MarginError.validation(`Unknown capability '${key}'.`, [
        { path: 'capabilityOverrides', message: `Unknown capability '${key}'.` },
      ]);
    if (entry.overrideState === 'default') delete overrides[key as CapabilityKey];
    else overrides[key as CapabilityKey] = entry.overrideState;
  }
  if (req.edition === 'Community') {
    const enabled = Object.entries(overrides).find(([, state]) => state === 'enabled');
    if (enabled) {
      throw MarginError.licenseRequired(
        enabled[0],
        `Enabling ${enabled[0]} needs the Commercial edition; the installation is Community.`,
      );
    }
  }
  const now = deps.clock.now().toISOString();
  const record: LicensingRecord = {
    edition: req.edition,
    activatedAt: req.edition === current.edition ? current.activatedAt : req.edition === 'Commercial' ? now : null,
    overrides,
  };
  await writeLicensing(deps, record);
  return view(record);
}
