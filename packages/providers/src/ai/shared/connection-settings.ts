import { type AiConnectionConfig, MarginError } from '@margin/core/spec';
import { trimTrailingSlashes } from '../../utils/index.js';

/** The profile's `defaultHeaders`, for every call; auth headers are laid over them. */
export function defaultHeadersOf(connection: AiConnectionConfig): Record<string, string> {
  return { ...(connection.defaultHeaders ?? {}) };
}

/** The API key, or a validation error for `azureIdentity`, which only the Azure kind accepts. */
export function apiKeyOf(connection: AiConnectionConfig, vendor: string): string {
  if (connection.auth.mode !== 'apiKey') {
    throw MarginError.validation(
      `${vendor} connections authenticate with an API key; auth.mode azureIdentity is accepted only for Azure OpenAI (kindCloudA).`,
      [{ path: 'auth.mode', message: 'Use apiKey.' }],
    );
  }
  return connection.auth.apiKey.trim();
}

/** The base URL as a URL, with a clear validation error instead of a TypeError. */
export function baseUrlOf(connection: AiConnectionConfig, fallback?: string): URL {
  const raw = connection.baseUrl?.trim() || fallback;
  if (!raw)
    throw MarginError.validation('baseUrl is required for this provider.', [{ path: 'baseUrl', message: 'Required.' }]);
  try {
    return new URL(raw);
  } catch {
    throw MarginError.validation('baseUrl is not a valid URL.', [{ path: 'baseUrl', message: 'Not a URL.' }]);
  }
}

/** The base URL's path without trailing slashes, e.g. `/openai/v1` or ``. */
export function pathOf(url: URL): string {
  return trimTrailingSlashes(url.pathname);
}
