export { oneOf, REGISTERED_ID_PATTERN, registeredId, required, text, timestamp } from './building-blocks.js';
export { aiProviderKind, protocolMode, providerFamily } from './registered-ids.js';
