/** The body of every Margin error response. */
export interface ErrorBody {
  error: string;
  code: string;
  /** The first 20 problems of a validation failure. */
  details?: Array<{ path: string; message: string }>;
  /** How many further problems `details` leaves out. */
  detailsOmitted?: number;
  requestId?: string;
  [extra: string]: unknown;
}

const MARKER = Symbol.for('margin.sdk.error');

/** Any non-2xx answer from the Margin API. Subclasses name the common cases. */
export class MarginApiError extends Error {
  readonly [MARKER] = true;
  readonly status: number;
  /** Machine code from the body (`validation_failed`, `conflict`, `license_required`, ...). */
  readonly code: string;
  readonly body: ErrorBody;
  readonly requestId: string | undefined;

  constructor(status: number, body: ErrorBody) {
    super(body.error);
    this.name = new.target.name;
    this.status = status;
    this.code = body.code;
    this.body = body;
    this.requestId = body.requestId;
  }

  static isInstance(value: unknown): value is MarginApiError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }
}

export class ValidationError extends MarginApiError {}
export class AuthenticationError extends MarginApiError {}
export class PermissionError extends MarginApiError {}
export class NotFoundError extends MarginApiError {}
export class ConflictError extends MarginApiError {}
/** A capability the installation's edition does not include. */
export class LicenseRequiredError extends ConflictError {
  get capability(): string | undefined {
    return typeof this.body.capability === 'string' ? this.body.capability : undefined;
  }
}
export class RateLimitError extends MarginApiError {
  /** From `Retry-After`, when the server sent it. */
  retryAfterSeconds: number | undefined;
}
export class ProviderError extends MarginApiError {}
export class ServerError extends MarginApiError {}

/** Builds the right subclass from a status and a body that may not even be JSON. */
export function errorFromResponse(status: number, body: unknown, retryAfter?: string | null): MarginApiError {
  const parsed: ErrorBody =
    typeof body === 'object' && body !== null && typeof (body as ErrorBody).error === 'string'
      ? (body as ErrorBody)
      : { error: `The Margin API answered ${status}.`, code: status >= 500 ? 'internal' : 'unknown' };
  if (status === 400) return new ValidationError(status, parsed);
  if (status === 401) return new AuthenticationError(status, parsed);
  if (status === 403) return new PermissionError(status, parsed);
  if (status === 404) return new NotFoundError(status, parsed);
  if (status === 409) {
    return parsed.code === 'license_required'
      ? new LicenseRequiredError(status, parsed)
      : new ConflictError(status, parsed);
  }
  if (status === 429) {
    const error = new RateLimitError(status, parsed);
    const seconds = Number(retryAfter);
    error.retryAfterSeconds = retryAfter && Number.isFinite(seconds) ? seconds : undefined;
    return error;
  }
  if (status === 502) return new ProviderError(status, parsed);
  if (status >= 500) return new ServerError(status, parsed);
  return new MarginApiError(status, parsed);
}
