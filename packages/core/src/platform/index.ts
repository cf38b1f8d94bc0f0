export { type Clock, systemClock } from './clock.js';
export { type Ids, randomIds } from './ids.js';
export { createAesGcmSecretBox, type SecretBox } from './secret-box.js';
