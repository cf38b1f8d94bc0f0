export {
  type AddressClass,
  classifyAddress,
  expandIpv6,
  isMetadataHostName,
  refusedAddressClass,
} from './address-policy.js';
export { type EgressRefusal, egressRefusalOf } from './url-policy.js';
