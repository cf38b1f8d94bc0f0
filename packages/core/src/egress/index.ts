export { type AddressClass, classifyAddress, isMetadataHostName, refusedAddressClass } from './address-policy.js';
export { type EgressRefusal, egressRefusalOf } from './url-policy.js';
