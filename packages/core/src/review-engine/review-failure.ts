import { MarginError } from '../kernel/index.js';
import type { CoverageManifest } from './coverage.js';

/**
 * The error of a review whose every chunk failed: it produced nothing it can stand behind, so it is
 * a failure, never an empty review. One wording for the service's jobs and reviews without it.
 */
export function everyChunkFailed(coverage: CoverageManifest): MarginError {
  const reasons = [...new Set(coverage.files.filter((f) => f.state === 'reviewFailed').map((f) => f.reason))];
  return MarginError.provider(
    'invalidResponse',
    `No part of the pull request could be reviewed (${reasons.join('; ')}); nothing was posted. The protocol shows each attempt.`,
  );
}

/** The model's window could not hold the chunk: it is split and each half reviewed alone. */
export const isContextLengthExceeded = (error: unknown): boolean =>
  MarginError.isInstance(error) && error.details.providerFailure === 'contextLengthExceeded';

/** Why a chunk (or one thorough sample of it) failed when its model call did, as its coverage says it. */
export function modelErrorReason(error: unknown): string {
  const message = MarginError.isInstance(error) && error.code !== 'internal' ? error.message : 'The model call failed.';
  return `modelError: ${message}`;
}
