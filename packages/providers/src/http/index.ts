export { providerMessage, redactSecrets } from './redact.js';
export { retryDelayFromHeaders, retryInfoDelay } from './retry-after.js';
export {
  createTransport,
  type ErrorAnswer,
  type ErrorVerdict,
  type HttpTransport,
  type HttpTuning,
  type ResponseType,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
  throwIfCancelled,
} from './transport.js';
