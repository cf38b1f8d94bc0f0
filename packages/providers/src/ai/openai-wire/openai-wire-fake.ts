import { type AiKindFakeControls, aiKindFakeScript, inputsOf } from '../../testing/ai-kind-fake.js';
import { type FakeHttpServer, type FakeRequest, startFakeHttpServer } from '../../testing/fake-http-server.js';

export interface OpenAiWireFakeOptions {
  /** Where the OpenAI routes live: `/v1` (OpenAI, LiteLLM, compatible servers) or `/openai/v1` (Azure). */
  apiPrefix: string;
  /** The only credential the fake accepts. */
  key: string;
  /** How a request presents its credential: `bearer` (`Authorization: Bearer`) or `apiKeyHeader` (Azure's `api-key`). */
  scheme: 'bearer' | 'apiKeyHeader';
  /** Ids `GET {apiPrefix}/models` lists. */
  models: readonly string[];
}

export interface OpenAiWireFake {
  url: string;
  server: FakeHttpServer;
  controls: AiKindFakeControls;
  /** Adds a route that refuses any credential but the valid one, as the others do. */
  onGuarded(method: string, path: string, handler: (request: FakeRequest) => unknown): void;
}

/**
 * An OpenAI-style endpoint for the AI kind contract: models, Responses, Chat Completions and
 * Embeddings in OpenAI's wire shapes. A refused key is answered 401 with the key echoed in the
 * message, as some compatible servers do, so redaction is exercised.
 */
export async function startOpenAiWireFake(options: OpenAiWireFakeOptions): Promise<OpenAiWireFake> {
  const server = await startFakeHttpServer();
  const credentialOf = (request: FakeRequest): string | undefined => {
    if (options.scheme === 'apiKeyHeader') return headerOf(request, 'api-key');
    return headerOf(request, 'authorization')?.replace(/^Bearer\s+/i, '');
  };
  const script = aiKindFakeScript(server, {
    accepted: (request) => credentialOf(request) === options.key,
    refused: (request) => ({
      status: 401,
      json: {
        error: {
          message: `Incorrect API key provided: ${credentialOf(request) ?? '(none)'}.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    }),
  });
  const prefix = options.apiPrefix.replace(/\/$/, '');
  const tooLong = (param: string) => ({
    status: 400,
    json: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens.",
        type: 'invalid_request_error',
        param,
        code: 'context_length_exceeded',
      },
    },
  });
  let ids = 0;

  script.onGuarded('GET', `${prefix}/models`, () => ({
    json: {
      object: 'list',
      data: options.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'system' })),
    },
  }));
  script.onGuarded('POST', `${prefix}/responses`, (request) => {
    const chat = script.takeChat();
    if (chat.kind === 'tooLong') return tooLong('input');
    const { text, inputTokens, outputTokens } = chat.answer;
    return {
      json: {
        id: `resp_fake_${++ids}`,
        object: 'response',
        status: 'completed',
        model: (request.json as { model?: string } | undefined)?.model,
        output: [
          {
            type: 'message',
            id: `msg_fake_${ids}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ],
        usage: {
          input_tokens: inputTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: outputTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: inputTokens + outputTokens,
        },
        incomplete_details: null,
        error: null,
      },
    };
  });
  script.onGuarded('POST', `${prefix}/chat/completions`, (request) => {
    const chat = script.takeChat();
    if (chat.kind === 'tooLong') return tooLong('messages');
    const { text, inputTokens, outputTokens } = chat.answer;
    return {
      json: {
        id: `chatcmpl-fake-${++ids}`,
        object: 'chat.completion',
        created: 1_700_000_000,
        model: (request.json as { model?: string } | undefined)?.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: inputTokens,
          completion_tokens: outputTokens,
          total_tokens: inputTokens + outputTokens,
          prompt_tokens_details: { cached_tokens: 0 },
        },
      },
    };
  });
  script.onGuarded('POST', `${prefix}/embeddings`, (request) => {
    const inputs = inputsOf(request.json);
    const data = inputs.map((_, index) => ({ object: 'embedding', index, embedding: script.takeVector() }));
    // Answered out of order: clients must place vectors by `index`.
    return {
      json: {
        object: 'list',
        data: data.reverse(),
        model: (request.json as { model?: string } | undefined)?.model,
        usage: { prompt_tokens: inputs.length * 4, total_tokens: inputs.length * 4 },
      },
    };
  });

  return {
    url: server.url,
    server,
    controls: script.controls,
    onGuarded: (method, path, handler) => script.onGuarded(method, path, (request) => ({ json: handler(request) })),
  };
}

function headerOf(request: FakeRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
