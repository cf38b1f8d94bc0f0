import { type AiKindFakeControls, aiKindFakeScript } from '../../testing/ai-kind-fake.js';
import { type FakeHttpServer, type FakeRequest, startFakeHttpServer } from '../../testing/fake-http-server.js';

export interface AnthropicFakeOptions {
  /** The only `x-api-key` the fake accepts. */
  key: string;
  /** Ids `GET /v1/models` lists, one page. */
  models: readonly string[];
}

export interface AnthropicFake {
  url: string;
  server: FakeHttpServer;
  controls: AiKindFakeControls;
}

/**
 * The Anthropic Messages API for the AI kind contract: `GET /v1/models` and `POST /v1/messages`
 * in Anthropic's wire shapes, `x-api-key` checked on every route, an overlong prompt refused with
 * `prompt is too long`.
 */
export async function startAnthropicFake(options: AnthropicFakeOptions): Promise<AnthropicFake> {
  const server = await startFakeHttpServer();
  const keyOf = (request: FakeRequest) => {
    const value = request.headers['x-api-key'];
    return Array.isArray(value) ? value[0] : value;
  };
  const script = aiKindFakeScript(server, {
    accepted: (request) => keyOf(request) === options.key && request.headers['anthropic-version'] !== undefined,
    refused: () => ({
      status: 401,
      json: {
        type: 'error',
        error: { type: 'authentication_error', message: 'invalid x-api-key' },
        request_id: 'req_fake_refused',
      },
    }),
  });
  let ids = 0;

  script.onGuarded('GET', '/v1/models', () => ({
    json: {
      data: options.models.map((id) => ({
        type: 'model',
        id,
        display_name: id,
        created_at: '2025-09-29T00:00:00Z',
        max_input_tokens: 200_000,
        max_tokens: 64_000,
      })),
      has_more: false,
      first_id: options.models[0] ?? null,
      last_id: options.models.at(-1) ?? null,
    },
  }));
  script.onGuarded('POST', '/v1/messages', (request) => {
    const chat = script.takeChat();
    if (chat.kind === 'tooLong') {
      return {
        status: 400,
        json: {
          type: 'error',
          error: { type: 'invalid_request_error', message: 'prompt is too long: 208656 tokens > 200000 maximum' },
          request_id: 'req_fake_too_long',
        },
      };
    }
    const { text, inputTokens, outputTokens } = chat.answer;
    return {
      json: {
        id: `msg_fake_${++ids}`,
        type: 'message',
        role: 'assistant',
        model: (request.json as { model?: string } | undefined)?.model,
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: {
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    };
  });

  return { url: server.url, server, controls: script.controls };
}
