export {
  type Credentials,
  createMarginClient,
  type MarginClient,
  type MarginClientOptions,
  type RawClient,
  unwrap,
} from './client.js';
export * from './errors.js';
export type { components, operations, paths } from './generated/schema.js';
export type { TransportOptions } from './transport.js';
