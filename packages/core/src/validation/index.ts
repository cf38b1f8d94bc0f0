/** The zod building blocks every capability's request and view schemas are made of. */
export { oneOf, REGISTERED_ID_PATTERN, registeredId, required, text, timestamp } from './building-blocks.js';
