import { type AiFailureCategory, type AiProbeResult, MarginError } from '@margin/core';

/** How a failed call reads as a probe/verify category (decisions.md, AI connections). */
export function failureCategoryOf(error: unknown): AiFailureCategory {
  if (!MarginError.isInstance(error)) return 'unknown';
  const failure = error.details.providerFailure;
  const status = typeof error.details.providerStatus === 'number' ? error.details.providerStatus : undefined;
  switch (failure) {
    case 'credentials':
      return 'credentials';
    case 'authorization':
      return 'authorization';
    case 'egressRefused':
    case 'timeout':
      return 'endpointReachability';
    case 'unavailable':
      // No status: DNS, refused connection, TLS. A 5xx: the endpoint answers but does not serve.
      return 'endpointReachability';
    case 'invalidResponse':
      // It answered, but not in this API's shape: usually a baseUrl pointing at something else.
      return 'capabilityMismatch';
    case 'notFound':
    case 'rejected':
    case 'rateLimited':
    case 'quotaExceeded':
      return 'providerRejected';
    default:
      return status !== undefined && status >= 400 && status < 500 ? 'providerRejected' : 'unknown';
  }
}

/**
 * Runs a probe's authenticated call and turns the outcome into a probe result. Configuration
 * errors (`validation_failed`, e.g. a missing region) are not probe outcomes: they are thrown, so
 * the caller answers 400 naming the field.
 */
export async function probeWith(
  call: () => Promise<{ summary: string; warnings?: string[] }>,
  warnings: string[] = [],
): Promise<AiProbeResult> {
  try {
    const ok = await call();
    return { status: 'succeeded', summary: ok.summary, warnings: [...warnings, ...(ok.warnings ?? [])] };
  } catch (error) {
    if (MarginError.isInstance(error) && error.code === 'validation_failed') throw error;
    return {
      status: 'failed',
      failureCategory: failureCategoryOf(error),
      summary: MarginError.isInstance(error) ? error.message : 'The probe failed for an unexpected reason.',
      warnings,
    };
  }
}
