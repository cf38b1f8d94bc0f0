import type { Actor } from '../kernel/index.js';
import type { CapabilityKey } from './capabilities.js';
import { getLicensing, type LicensingAdminDeps, patchLicensing } from './licensing.js';
import { requireCapability } from './licensing-state.js';
import type { LicensingViewBody } from './schemas.js';

/** The edition and capability overrides of the installation. */
export interface LicensingUseCases {
  getLicensing(actor: Actor): Promise<LicensingViewBody>;
  patchLicensing(actor: Actor, input: unknown): Promise<LicensingViewBody>;
  /** For hosts: 409 `license_required` unless the capability is available. */
  requireCapability(capability: CapabilityKey): Promise<void>;
}

export function createLicensingUseCases(deps: LicensingAdminDeps): LicensingUseCases {
  return {
    getLicensing: (actor) => getLicensing(deps, actor),
    patchLicensing: (actor, input) => patchLicensing(deps, actor, input),
    requireCapability: (capability) => requireCapability(deps, capability),
  };
}
