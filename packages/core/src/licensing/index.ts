export {
  CAPABILITY_KEYS,
  type CapabilityKey,
  EDITIONS,
  type Edition,
  OVERRIDE_STATES,
  type OverrideState,
} from './capabilities.js';
export { getLicensing, patchLicensing } from './licensing.js';
export {
  allCapabilityStates,
  type CapabilityState,
  capabilityState,
  isCapabilityAvailable,
  isTenantInReach,
  type LicensingRecord,
  readLicensing,
  requireCapability,
  requireMultiTenancy,
} from './licensing-state.js';
export { CapabilityStateView, LicensingView, PatchLicensingInput } from './schemas.js';
