/**
 * Acme Models' HTTP API (fictional), spoken through the providers package's shared AI runtime, so
 * the calls get the same egress guard, timeouts, retries and credential redaction as the built-in
 * adapters:
 *
 *   GET  {baseUrl}/models    → { models: [{ id, display_name?, context_window? }] }
 *   POST {baseUrl}/generate  { model, prompt, max_tokens?, temperature? }
 *                            → { output, usage: { input_tokens, output_tokens }, stop_reason }
 *
 * Every call carries the key in `x-acme-key`, and the profile's `workspace` setting, when set, in
 * `x-acme-workspace`. Errors are `{ error: { type, message } }`.
 */

import { type AiConnectionConfig, MarginError } from '@margin/core/spec';
import type { AiRuntime } from '@margin/providers';
import {
  type ErrorAnswer,
  type ErrorVerdict,
  joinUrl,
  readNumber,
  readObject,
  readString,
} from '@margin/providers/utils';
import type { AcmeSettings } from './acme-kind.js';

export const ACME = 'Acme Models';

export interface AcmeModel {
  id: string;
  displayName: string | undefined;
  contextWindow: number | undefined;
}

export interface AcmeGenerateRequest {
  model: string;
  prompt: string;
  max_tokens?: number | undefined;
  temperature?: number | undefined;
}

export interface AcmeGeneration {
  output: string;
  inputTokens: number;
  outputTokens: number;
  /** `max_tokens` when the answer was cut at the limit. */
  stopReason: string;
}

export interface AcmeClient {
  listModels(): Promise<AcmeModel[]>;
  generate(request: AcmeGenerateRequest, signal?: AbortSignal): Promise<AcmeGeneration>;
}

export function createAcmeClient(runtime: AiRuntime, connection: AiConnectionConfig<AcmeSettings>): AcmeClient {
  const key = apiKeyOf(connection);
  const transport = runtime.transport({ provider: ACME, secrets: () => [key], inspectError: inspectAcmeError });
  const { workspace } = connection.settings;
  // Authentication laid over the profile's default headers, as the built-in adapters do.
  const headers = {
    ...connection.defaultHeaders,
    ...(workspace ? { 'x-acme-workspace': workspace } : {}),
    'x-acme-key': key,
  };
  // Core took the settings out: what is left are real query parameters.
  const query = connection.defaultQueryParams;

  return {
    async listModels() {
      const { data } = await transport.request<unknown>({ url: joinUrl(connection.baseUrl, 'models'), headers, query });
      const models = readObject(data)?.models;
      if (!Array.isArray(models)) throw invalidAnswer('a model list without `models`');
      return models.flatMap((m): AcmeModel[] => {
        const id = text(m, 'id');
        if (id === undefined) return [];
        return [{ id, displayName: text(m, 'display_name'), contextWindow: count(m, 'context_window') }];
      });
    },
    async generate(request, signal) {
      const { data } = await transport.request<unknown>({
        method: 'POST',
        url: joinUrl(connection.baseUrl, 'generate'),
        headers,
        query,
        json: request,
        signal,
      });
      const output = readString(data, 'output');
      if (output === undefined) throw invalidAnswer('a generation without `output` text');
      return {
        output,
        inputTokens: count(data, 'usage', 'input_tokens') ?? 0,
        outputTokens: count(data, 'usage', 'output_tokens') ?? 0,
        stopReason: text(data, 'stop_reason') ?? 'end',
      };
    },
  };
}

/** Acme authenticates with a key only: a keyless or Azure-identity profile is a configuration error (400). */
function apiKeyOf(connection: AiConnectionConfig): string {
  const key = connection.auth.mode === 'apiKey' ? connection.auth.apiKey.trim() : '';
  if (key === '') {
    throw MarginError.validation(`${ACME} needs an API key.`, [
      { path: 'auth.apiKey', message: 'Set the Acme Models API key.' },
    ]);
  }
  return key;
}

/**
 * Acme's 402 `credits_exhausted` is a billing state, not a passing fault: never retried, and
 * reported as a quota problem. Everything else keeps the transport's reading of the status.
 */
function inspectAcmeError(answer: ErrorAnswer): ErrorVerdict | undefined {
  const type = readString(answer.body, 'error', 'type');
  return type === 'credits_exhausted' ? { failure: 'quotaExceeded', retry: false } : undefined;
}

/** Not Acme's API (a proxy page, another vendor): verification reads it as a capability mismatch. */
function invalidAnswer(what: string): MarginError {
  return MarginError.provider('invalidResponse', `${ACME} answered with ${what}; is the base URL Acme's API?`);
}

/** A non-empty string at `path`: Acme leaves optional fields empty. */
function text(value: unknown, ...path: string[]): string | undefined {
  return readString(value, ...path) || undefined;
}

/** A count at `path`: a non-negative number, or undefined. */
function count(value: unknown, ...path: string[]): number | undefined {
  const found = readNumber(value, ...path);
  return found !== undefined && found >= 0 ? found : undefined;
}
