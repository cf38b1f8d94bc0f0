export {
  CAPABILITY_KEYS,
  type CapabilityKey,
  EDITIONS,
  type Edition,
  OVERRIDE_STATES,
  type OverrideState,
} from './capabilities.js';
export type { LicensingAdminDeps } from './licensing.js';
export {
  allCapabilityStates,
  type CapabilityState,
  capabilityState,
  isCapabilityAvailable,
  isTenantInReach,
  type LicensingDeps,
  type LicensingRecord,
  type LicensingRepositories,
  readLicensing,
  requireCapability,
  requireMultiTenancy,
} from './licensing-state.js';
export { CapabilityStateView, LicensingView, type LicensingViewBody, PatchLicensingInput } from './schemas.js';
export { createLicensingUseCases, type LicensingUseCases } from './use-cases.js';
