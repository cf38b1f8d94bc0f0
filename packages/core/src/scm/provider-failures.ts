import type { MarginError, ProviderFailure } from '../kernel/index.js';

/** Every `ProviderFailure`, as wire values (errors.ts has only the type). */
export const PROVIDER_FAILURES = [
  'credentials',
  'authorization',
  'notFound',
  'rateLimited',
  'quotaExceeded',
  'unavailable',
  'timeout',
  'cancelled',
  'invalidResponse',
  'rejected',
  'egressRefused',
  'policy',
  'contextLengthExceeded',
] as const satisfies readonly ProviderFailure[];

// Fails to compile when errors.ts gains a failure this list lacks.
type Missing = Exclude<ProviderFailure, (typeof PROVIDER_FAILURES)[number]>;
const exhaustive: Missing extends never ? true : never = true;
void exhaustive;

/** How a provider call failed, as far as a stored verification outcome records it. */
export function failureCategoryOf(error: MarginError): ProviderFailure {
  if (error.code === 'not_found') return 'notFound';
  if (error.code === 'validation_failed') return 'rejected';
  const detail = error.details.providerFailure;
  return (PROVIDER_FAILURES as readonly unknown[]).includes(detail) ? (detail as ProviderFailure) : 'unavailable';
}
