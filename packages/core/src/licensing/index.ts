export {
  CAPABILITY_KEYS,
  type CapabilityKey,
  EDITIONS,
  type Edition,
  OVERRIDE_STATES,
  type OverrideState,
} from './capabilities.js';
export {
  type CapabilityState,
  capabilityState,
  isCapabilityAvailable,
  type LicensingRecord,
  readLicensing,
  requireCapability,
  requireMultiTenancy,
} from './licensing-state.js';
export { CapabilityStateView, LicensingView, PatchLicensingInput } from './schemas.js';
