import { type AiKindFakeControls, aiKindFakeScript } from '../../testing/ai-kind-fake.js';
import {
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  startFakeHttpServer,
} from '../../testing/fake-http-server.js';

export interface VertexFakeOptions {
  /** The only `x-goog-api-key` the fake accepts. */
  key: string;
  project: string;
  location: string;
  /** Publisher models `GET /v1beta1/publishers/google/models` lists. */
  models: readonly string[];
}

export interface VertexFake {
  url: string;
  server: FakeHttpServer;
  controls: AiKindFakeControls;
}

/**
 * Google Vertex AI with an API key for the AI kind contract: the publisher-model list,
 * `generateContent` and text-embedding `predict` under `projects/{project}/locations/{location}`,
 * in Google's wire shapes. A wrong key is refused as Google does (400 API_KEY_INVALID); an input
 * over the limit with Google's "input token count exceeds" message.
 */
export async function startVertexFake(options: VertexFakeOptions): Promise<VertexFake> {
  const server = await startFakeHttpServer();
  const keyOf = (request: FakeRequest) => {
    const value = request.headers['x-goog-api-key'];
    return Array.isArray(value) ? value[0] : value;
  };
  const script = aiKindFakeScript(server, {
    accepted: (request) => keyOf(request) === options.key,
    refused: () =>
      googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'aiplatform.googleapis.com' },
        },
      ]),
  });
  const modelsRoot = `/v1/projects/${options.project}/locations/${options.location}/publishers/google/models`;

  script.onGuarded('GET', '/v1beta1/publishers/google/models', () => ({
    json: {
      publisherModels: options.models.map((id) => ({
        name: `publishers/google/models/${id}`,
        versionId: '001',
        launchStage: 'GA',
      })),
    },
  }));
  script.onGuarded('POST', `${modelsRoot}/:call`, (request) => {
    const method = (request.params.call ?? '').split(':').at(-1);
    if (method === 'generateContent') {
      const chat = script.takeChat();
      if (chat.kind === 'tooLong') {
        return googleError(
          400,
          'INVALID_ARGUMENT',
          'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
        );
      }
      const { text, inputTokens, outputTokens } = chat.answer;
      return {
        json: {
          candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
          usageMetadata: {
            promptTokenCount: inputTokens,
            candidatesTokenCount: outputTokens,
            totalTokenCount: inputTokens + outputTokens,
          },
          modelVersion: request.params.call?.split(':')[0],
          responseId: 'fake-response',
        },
      };
    }
    if (method === 'predict') {
      const instances = (request.json as { instances?: Array<{ content?: string }> } | undefined)?.instances ?? [];
      return {
        json: {
          predictions: instances.map((instance) => ({
            embeddings: {
              values: script.takeVector(),
              statistics: { token_count: Math.max(1, Math.ceil(String(instance.content ?? '').length / 4)) },
            },
          })),
        },
      };
    }
    return googleError(404, 'NOT_FOUND', `The fake has no method ${method}.`);
  });

  return { url: server.url, server, controls: script.controls };
}

function googleError(code: number, status: string, message: string, details: unknown[] = []): FakeReply {
  return { status: code, json: { error: { code, message, status, details } } };
}
