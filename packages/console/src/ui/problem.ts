import { LicenseRequiredError, MarginApiError, NotFoundError, RateLimitError } from '@margin/sdk-client';

/**
 * What went wrong, in one shape whether the API refused a request or the form caught it first:
 * the message to show, and per-field messages keyed by the API's field path (`details[].path`).
 */
export interface Problem {
  message: string;
  details: Array<{ path: string; message: string }>;
  code?: string;
}

export function toProblem(error: unknown): Problem {
  if (error instanceof MarginApiError) {
    return { message: explain(error), details: error.body.details ?? [], code: error.code };
  }
  if (error instanceof TypeError) {
    return { message: 'The Margin API could not be reached. Check the connection and try again.', details: [] };
  }
  return { message: error instanceof Error ? error.message : String(error), details: [] };
}

function explain(error: MarginApiError): string {
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterSeconds;
    return `${error.message} Too many attempts from this address${wait ? `; try again in ${wait} seconds` : '; wait a minute and try again'}.`;
  }
  if (error instanceof LicenseRequiredError) {
    return `${error.message} An administrator can change the edition under Licensing.`;
  }
  if (error.code === 'account_locked') {
    return `${error.message} After five wrong passwords in a row the account is locked for 15 minutes (longer after repeated lockouts), even for the right password.`;
  }
  return error.message;
}

/** The problem the browser's own checks find in a form, shaped like the API's validation answer. */
export function formProblem(form: HTMLFormElement): Problem | undefined {
  const details: Problem['details'] = [];
  for (const element of Array.from(form.elements)) {
    const field = element as HTMLInputElement;
    if (field.willValidate && !field.checkValidity() && field.name) {
      details.push({ path: field.name, message: field.validationMessage });
    }
  }
  return details.length ? { message: 'Some fields need attention.', details, code: 'validation_failed' } : undefined;
}

/** A field's API path in its display form: `configuredModels[0].tokenizerName`. */
export const fieldMessage = (problem: Problem | undefined, path: string) =>
  problem?.details.find((d) => d.path === path)?.message;

/**
 * For reads where "not there" is an answer (no reviewer identity yet): null instead of a 404 (null,
 * not undefined, which a query may not answer).
 */
export async function unlessMissing<T>(pending: Promise<T>): Promise<T | null> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}
