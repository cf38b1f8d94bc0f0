import { MAX_VALIDATION_DETAILS } from '@margin/core';
import { z } from 'zod';
import type { RouteResponse } from '../http/route.js';

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'What went wrong, for people.' }),
    code: z
      .string()
      .meta({ description: 'Machine code: validation_failed, unauthenticated, forbidden, not_found, conflict, ...' }),
    details: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .max(MAX_VALIDATION_DETAILS)
      .optional()
      .meta({
        description: `Per-field problems of a validation failure: the first ${MAX_VALIDATION_DETAILS}; \`detailsOmitted\` counts the rest.`,
      }),
    detailsOmitted: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({
        description: `How many further problems \`details\` leaves out (it lists at most ${MAX_VALIDATION_DETAILS}).`,
      }),
    capability: z.string().optional().meta({ description: 'The capability a license_required error is about.' }),
    retryAfterSeconds: z
      .number()
      .int()
      .optional()
      .meta({ description: 'With 429 and 503: the seconds to wait before trying again, as in `Retry-After`.' }),
    requestId: z.string().optional(),
  })
  .meta({ id: 'ErrorBody', description: 'The body of every error response.' });

const DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid; `details` names the fields.',
  401: 'No valid credentials.',
  403: 'The caller lacks the required role.',
  404: 'Not found, or not visible to the caller.',
  409: 'Conflicts with the current state, or needs a license (`code: license_required`).',
  413: 'The body is too large.',
  429: 'Too many requests; see `Retry-After`.',
  502: 'A provider could not be reached or refused the call.',
  503: 'A dependency is unavailable or too busy; retry after `Retry-After` seconds when given.',
};

/** Error responses for a route's declaration: `...errors(403, 404)`. */
export function errors(...statuses: number[]): Record<number, RouteResponse> {
  return Object.fromEntries(statuses.map((s) => [s, { description: DESCRIPTIONS[s] ?? 'Error.', schema: ErrorBody }]));
}
