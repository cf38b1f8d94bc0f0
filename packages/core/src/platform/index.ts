export { type Clock, pause, systemClock } from './clock.js';
export { type Ids, randomIds } from './ids.js';
export { createAesGcmSecretBox, type SealedField, type SecretBox, sealedSecretContext } from './secret-box.js';
export { TtlCache } from './ttl-cache.js';
