import { MarginError } from '../kernel/index.js';
import type { AiFailureCategory } from './ai-model-v1.js';

/**
 * How a failed provider call reads as a verification category (decisions.md). The same mapping as
 * the adapters' probes use, so a probe and a verify of the same fault agree.
 */
export function failureCategoryOf(error: unknown): AiFailureCategory {
  if (!MarginError.isInstance(error)) return 'unknown';
  // A configuration the kind cannot use (a missing region, a mode it refuses).
  if (error.code === 'validation_failed') return 'capabilityMismatch';
  switch (error.details.providerFailure) {
    case 'credentials':
      return 'credentials';
    case 'policy':
      return 'policy';
    case 'authorization':
      return 'authorization';
    case 'egressRefused':
    case 'timeout':
    case 'unavailable':
      return 'endpointReachability';
    case 'invalidResponse':
      return 'capabilityMismatch';
    case 'notFound':
    case 'rejected':
    case 'rateLimited':
    case 'quotaExceeded':
      return 'providerRejected';
    default: {
      const status = error.details.providerStatus;
      return typeof status === 'number' && status >= 400 && status < 500 ? 'providerRejected' : 'unknown';
    }
  }
}

/** The error's message when it is ours (written to be shown), a generic one otherwise. */
export function failureSummaryOf(error: unknown): string {
  return MarginError.isInstance(error) ? error.message : 'The call failed for an unexpected reason.';
}
