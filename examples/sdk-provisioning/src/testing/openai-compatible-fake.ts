/**
 * An OpenAI-compatible server (as vLLM or Ollama serve) on a loopback socket, for the test: the
 * model list Margin probes and the chat completion its verification asks for.
 */
import { type FakeRequest, startFakeHttpServer } from '@margin/providers/testing';

export const CHAT_MODEL = 'qwen2.5-coder:32b';

export interface OpenAiCompatibleFake {
  /** The profile's base URL: `http://127.0.0.1:<port>/v1`. */
  apiRoot: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

export async function startOpenAiCompatibleFake(options: { apiKey: string }): Promise<OpenAiCompatibleFake> {
  const server = await startFakeHttpServer();
  const refusal = { status: 401, json: { error: { message: 'Invalid API key.', type: 'invalid_request_error' } } };
  const authorized = (request: FakeRequest) => request.headers.authorization === `Bearer ${options.apiKey}`;

  server.on('GET', '/v1/models', (request) =>
    authorized(request) ? { json: { object: 'list', data: [{ id: CHAT_MODEL, object: 'model' }] } } : refusal,
  );
  server.on('POST', '/v1/chat/completions', (request) =>
    authorized(request)
      ? {
          json: {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'OK' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 },
          },
        }
      : refusal,
  );
  return { apiRoot: `${server.url}/v1`, requests: server.requests, close: () => server.close() };
}
