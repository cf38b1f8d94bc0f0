/**
 * Acme Models' API on a loopback socket, for the test: real HTTP, so the adapter's headers, bodies
 * and error handling are exercised exactly as they go over the wire.
 */
import { type FakeHttpServer, type FakeRequest, startFakeHttpServer } from '@margin/providers/testing';

export const ACME_CHAT_MODEL = 'acme-coder-1';
export const REVIEW_ANSWER = 'The loop never ends when the list is empty; add a guard.';

export interface AcmeFake {
  /** The base URL of a profile: `http://127.0.0.1:<port>/v1`. */
  apiRoot: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export async function startAcmeFake(options: { apiKey: string }): Promise<AcmeFake> {
  const server: FakeHttpServer = await startFakeHttpServer();
  const authorized = (request: FakeRequest) => request.headers['x-acme-key'] === options.apiKey;
  const refusal = { status: 401, json: { error: { type: 'invalid_key', message: 'Unknown API key.' } } };

  server.on('GET', '/v1/models', (request) =>
    authorized(request)
      ? {
          json: {
            models: [
              { id: ACME_CHAT_MODEL, display_name: 'Acme Coder 1', context_window: 64_000 },
              { id: 'acme-mini', context_window: 8_000 },
            ],
          },
        }
      : refusal,
  );
  server.on('POST', '/v1/generate', (request) => {
    if (!authorized(request)) return refusal;
    const prompt = String((request.json as { prompt?: unknown } | undefined)?.prompt ?? '');
    // Margin's verification asks for one word; anything else gets the canned review.
    const output = prompt.includes('Reply with the single word OK.') ? 'OK' : REVIEW_ANSWER;
    return {
      json: { output, usage: { input_tokens: 37, output_tokens: 11 }, stop_reason: 'end' },
    };
  });

  return { apiRoot: `${server.url}/v1`, requests: server.requests, close: () => server.close() };
}
