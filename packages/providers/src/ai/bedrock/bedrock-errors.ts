import type { ProviderFailure } from '@margin/core/spec';
import { type ErrorAnswer, type ErrorVerdict, readObject, readString } from '../../utils/index.js';
import { contextLengthVerdict } from '../shared/context-length.js';

const BY_TYPE: Readonly<Record<string, { failure: ProviderFailure; retry: boolean }>> = {
  ThrottlingException: { failure: 'rateLimited', retry: true },
  TooManyRequestsException: { failure: 'rateLimited', retry: true },
  ModelNotReadyException: { failure: 'unavailable', retry: true },
  ServiceUnavailableException: { failure: 'unavailable', retry: true },
  InternalServerException: { failure: 'unavailable', retry: true },
  ModelTimeoutException: { failure: 'timeout', retry: true },
  ServiceQuotaExceededException: { failure: 'quotaExceeded', retry: false },
  UnrecognizedClientException: { failure: 'credentials', retry: false },
  InvalidSignatureException: { failure: 'credentials', retry: false },
  IncompleteSignatureException: { failure: 'credentials', retry: false },
  MissingAuthenticationTokenException: { failure: 'credentials', retry: false },
  ExpiredTokenException: { failure: 'credentials', retry: false },
  AccessDeniedException: { failure: 'authorization', retry: false },
  ValidationException: { failure: 'rejected', retry: false },
  ModelErrorException: { failure: 'rejected', retry: false },
  ResourceNotFoundException: { failure: 'notFound', retry: false },
};

/**
 * Bedrock names the error in `x-amzn-ErrorType` (`ThrottlingException:http://internal…`) or the
 * body's `__type`, with no Retry-After: throttling is retried with the transport's backoff. Bad
 * keys and signatures come as 403 but are credential problems, not missing permissions. A
 * `ValidationException` saying the input is too long ("Input is too long for requested model",
 * "too many input tokens", Claude's "prompt is too long") is `contextLengthExceeded`.
 */
export function inspectBedrockError(answer: ErrorAnswer): ErrorVerdict | undefined {
  const raw = answer.headers.get('x-amzn-errortype') ?? readString(readObject(answer.body)?.__type) ?? '';
  const type = raw.split(':')[0]?.split('#').pop() ?? '';
  if (type === 'ValidationException') {
    const body = readObject(answer.body);
    const tooLong = contextLengthVerdict(readString(body?.message) ?? readString(body?.Message));
    if (tooLong) return tooLong;
  }
  const known = BY_TYPE[type];
  if (known) return known;
  return undefined;
}
