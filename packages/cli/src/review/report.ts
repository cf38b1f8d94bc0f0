import type { StandaloneReview } from '@margin/core';
import type { FailOn } from './fail-on.js';

/** A finished review with what the formats say about how it ran. */
export interface ReviewReport {
  review: StandaloneReview;
  failOn: FailOn;
  /** `kind/model`, as named by the flags. */
  model: string;
  /** What was reviewed: `base...head` of a repository, or the pull request's address. */
  target: string;
  /** The pull request's number when publishing; absent for dry runs and local repositories. */
  published?: { posted: number; failed: number } | undefined;
}
