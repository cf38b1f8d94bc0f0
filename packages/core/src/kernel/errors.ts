import { ZodError } from 'zod';

/** Every machine code an error can carry, with the HTTP status a host answers it with. */
export const ERROR_STATUS = {
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  license_required: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  provider_unavailable: 502,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ValidationIssue {
  path: string;
  message: string;
}

/** Why a call to a source-control or AI provider failed, as far as the caller needs to act on it. */
export type ProviderFailure =
  | 'credentials'
  | 'authorization'
  | 'notFound'
  | 'rateLimited'
  | 'quotaExceeded'
  | 'unavailable'
  /** No complete answer within the call's deadline (slow to connect, no headers, a body that trickles). */
  | 'timeout'
  /** The caller stopped the call (its signal aborted): not the provider's doing, never retried. */
  | 'cancelled'
  | 'invalidResponse'
  | 'rejected'
  | 'egressRefused'
  /** The tenant's AI policy does not permit the connection: refused before any call is made. */
  | 'policy'
  /** The input did not fit the model's context window; split it and ask again. */
  | 'contextLengthExceeded';

const MARKER = Symbol.for('margin.error');

/**
 * An error body stays small whatever the input: a 100,000-item array must not answer one detail per
 * item, and a path or message built from a huge key must not echo it whole.
 */
export const MAX_VALIDATION_DETAILS = 20;
const MAX_MESSAGE_LENGTH = 500;
const MAX_PATH_LENGTH = 200;

const clipped = (value: string, max: number) => (value.length > max ? `${value.slice(0, max - 1)}…` : value);

/** `details` holds the first issues; `detailsOmitted` counts the rest. */
function validationDetails(issues: readonly ValidationIssue[]): Record<string, unknown> {
  if (issues.length === 0) return {};
  const details = issues.slice(0, MAX_VALIDATION_DETAILS).map((issue) => ({
    path: clipped(issue.path, MAX_PATH_LENGTH),
    message: clipped(issue.message, MAX_MESSAGE_LENGTH),
  }));
  const omitted = issues.length - details.length;
  return omitted > 0 ? { details, detailsOmitted: omitted } : { details };
}

/**
 * The one error type of Margin. Hosts turn it into `{ error, code, ...details }`; messages are written
 * for the caller and never carry a secret.
 */
export class MarginError extends Error {
  readonly [MARKER] = true;
  readonly code: ErrorCode;
  /** Extra fields that belong in the response body (e.g. `jobId`, `capability`, `details`). */
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MarginError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  /** Works across duplicate copies of this package, unlike `instanceof`. */
  static isInstance(value: unknown): value is MarginError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  static validation(message: string, issues: ValidationIssue[] = []): MarginError {
    return new MarginError('validation_failed', clipped(message, MAX_MESSAGE_LENGTH), validationDetails(issues));
  }

  /** A validation failure named by its issues, worded as zod's are: `Invalid request: <path>: <message>`. */
  static invalid(issues: ValidationIssue[]): MarginError {
    const first = issues[0];
    const message = first
      ? `Invalid request: ${first.path ? `${first.path}: ` : ''}${first.message}`
      : 'Invalid request.';
    return MarginError.validation(message, issues);
  }

  static unauthenticated(message = 'Valid credentials required.'): MarginError {
    return new MarginError('unauthenticated', message);
  }

  static forbidden(message = 'You do not have the required role for this action.'): MarginError {
    return new MarginError('forbidden', message);
  }

  static notFound(message: string): MarginError {
    return new MarginError('not_found', message);
  }

  static conflict(message: string, details: Record<string, unknown> = {}): MarginError {
    return new MarginError('conflict', message, details);
  }

  static licenseRequired(capability: string, message: string): MarginError {
    return new MarginError('license_required', message, { capability });
  }

  static rateLimited(message: string, retryAfterSeconds: number): MarginError {
    return new MarginError('rate_limited', message, { retryAfterSeconds });
  }

  /** Answered 503 with `Retry-After`: a dependency is down or too busy to answer now. */
  static unavailable(message: string, retryAfterSeconds: number): MarginError {
    return new MarginError('service_unavailable', message, { retryAfterSeconds });
  }

  static provider(
    failure: ProviderFailure,
    message: string,
    extra: { providerStatus?: number; retryAfterMs?: number; cause?: unknown } = {},
  ): MarginError {
    const details: Record<string, unknown> = { providerFailure: failure };
    if (extra.providerStatus !== undefined) details.providerStatus = extra.providerStatus;
    if (extra.retryAfterMs !== undefined) details.retryAfterMs = extra.retryAfterMs;
    return new MarginError('provider_unavailable', message, details, { cause: extra.cause });
  }

  static internal(message = 'An internal error occurred.', cause?: unknown): MarginError {
    return new MarginError('internal', message, {}, { cause });
  }

  /** The wire body. Details never override the two fixed fields. */
  toBody(): Record<string, unknown> {
    return { ...this.details, error: this.message, code: this.code };
  }
}

/** Turns anything thrown into a MarginError; unknown errors become a generic `internal` one. */
export function toMarginError(error: unknown): MarginError {
  if (MarginError.isInstance(error)) return error;
  if (error instanceof ZodError) return fromZodError(error);
  return MarginError.internal(undefined, error);
}

export function fromZodError(error: ZodError): MarginError {
  return MarginError.invalid(error.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })));
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
