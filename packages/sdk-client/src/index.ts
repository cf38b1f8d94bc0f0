export {
  type CallOptions,
  createMarginClient,
  type MarginClient,
  type MarginClientOptions,
  type QueryOf,
  type RawClient,
  type Schemas,
  unwrap,
  unwrapOutcome,
  type WaitOptions,
  WaitTimeoutError,
} from './client.js';
export * from './errors.js';
export type { components, operations, paths } from './generated/schema.js';
export type { Credentials, MarginSession } from './session.js';
export type { TransportOptions } from './transport.js';
