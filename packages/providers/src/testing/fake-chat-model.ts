import type { IncomingHttpHeaders } from 'node:http';
import type { AiResponseFormat, AiToolChoice, AiToolDefinition } from '@margin/core/spec';
import { estimateTokens } from '../ai/shared/token-count.js';
import { type FakeHandler, type FakeHttpServer, type FakeReply, startFakeHttpServer } from './fake-http-server.js';

/** One chat call as the fake received it, read back into the port's terms. */
export interface FakeChatRequest {
  /** The JSON body as sent. */
  body: Record<string, unknown>;
  model: string;
  /** The Chat Completions messages as sent, the system message included. */
  messages: Array<Record<string, unknown>>;
  tools: AiToolDefinition[];
  /** `tool_choice` as the port spells it; undefined when none was sent. */
  toolChoice: AiToolChoice | undefined;
  /** A `json_schema` response format; undefined otherwise. */
  responseFormat: AiResponseFormat | undefined;
  headers: IncomingHttpHeaders;
}

/** What the fake model answers to one chat call. */
export interface FakeChatAnswer {
  content?: string | undefined;
  toolCalls?: Array<{ name: string; arguments: unknown; id?: string | undefined }> | undefined;
  /** Default: counts derived from the text (characters ÷ 3.5), so cost reports are never zero. */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number | undefined } | undefined;
  /** Default `tool_calls` with tool calls, else `stop`; `length` reads as a cut-off answer. */
  finishReason?: string | undefined;
  /** An error status (e.g. 400, 429) answers `errorBody`, or an OpenAI-shaped error. */
  status?: number | undefined;
  errorBody?: unknown;
  /** Sends the answer one byte every `trickleMs` after its headers: a model that never finishes in time. */
  trickleMs?: number | undefined;
}

/**
 * How the fake answers: one answer for every call, a queue consumed in order (a call past its end
 * answers 501), or a function of the request.
 */
export type FakeChatScript =
  | FakeChatAnswer
  | readonly FakeChatAnswer[]
  | ((request: FakeChatRequest) => FakeChatAnswer | Promise<FakeChatAnswer>);

export interface FakeChatModelOptions {
  /** Ids `GET /v1/models` lists; the first is the chat model of `profile()`. Default `['fake-chat-model']`. */
  models?: readonly string[] | undefined;
  /** Default: `{ content: 'OK' }` for every call. */
  respond?: FakeChatScript | undefined;
  /** A fixed wait before every chat answer, on a timer (no CPU), for throughput benchmarks. */
  latencyMs?: number | undefined;
}

export interface FakeChatModelProfileOptions {
  displayName?: string | undefined;
  apiKey?: string | undefined;
  /** Laid over the configured chat model, e.g. `{ supportsStructuredOutput: false }`. */
  model?: Record<string, unknown> | undefined;
}

export interface FakeChatModel extends FakeHttpServer {
  /** The OpenAI API root, for `baseUrl`: `http://127.0.0.1:<port>/v1`. */
  apiRoot: string;
  /** Every chat call, in order. */
  chats: FakeChatRequest[];
  /** Replaces the script (a queue starts over). */
  respondWith(script: FakeChatScript): void;
  /** Answers every call on every route (models, chat, routes added later) with this, until cleared. */
  failWith(reply: FakeReply | undefined): void;
  /** A valid `kindCompatible` connection body for this fake, with prices so costs are non-zero. */
  profile(options?: FakeChatModelProfileOptions): FakeChatModelProfile;
}

export interface FakeChatModelProfile {
  displayName: string;
  providerKind: 'kindCompatible';
  baseUrl: string;
  auth: { mode: 'apiKey'; apiKey: string };
  configuredModels: Array<Record<string, unknown>>;
  purposeBindings: Array<{ purpose: string; remoteModelId: string }>;
}

export const FAKE_CHAT_MODEL_ID = 'fake-chat-model';

/**
 * A scriptable OpenAI-compatible model on loopback (`POST /v1/chat/completions`,
 * `GET /v1/models`) for engine and host tests: point a `kindCompatible` profile at `apiRoot` (with
 * private egress allowed), script the answers, and read back what was asked.
 */
export async function startFakeChatModel(options: FakeChatModelOptions = {}): Promise<FakeChatModel> {
  const server = await startFakeHttpServer();
  const models = options.models?.length ? [...options.models] : [FAKE_CHAT_MODEL_ID];
  const chats: FakeChatRequest[] = [];
  let script: FakeChatScript = options.respond ?? { content: 'OK' };
  let queued = 0;
  let failure: FakeReply | undefined;
  let callIds = 0;

  const on = server.on.bind(server);
  const guarded =
    (handler: FakeHandler): FakeHandler =>
    (request) =>
      failure ?? handler(request);

  const nextAnswer = async (request: FakeChatRequest): Promise<FakeChatAnswer | undefined> => {
    if (typeof script === 'function') return script(request);
    if (!Array.isArray(script)) return script as FakeChatAnswer;
    return (script as readonly FakeChatAnswer[])[queued++];
  };

  on(
    'GET',
    '/v1/models',
    guarded(() => ({
      json: { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'margin' })) },
    })),
  );
  on(
    'POST',
    '/v1/chat/completions',
    guarded(async (raw) => {
      const request = readChatRequest(raw.json, raw.headers);
      chats.push(request);
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      const answer = await nextAnswer(request);
      if (!answer) {
        return errorReply(501, `The fake chat model has no scripted answer left for call ${chats.length}.`);
      }
      if (answer.status !== undefined && answer.status >= 400) {
        return answer.errorBody !== undefined
          ? { status: answer.status, json: answer.errorBody }
          : errorReply(answer.status, `The fake chat model answered ${answer.status}.`);
      }
      const toolCalls = (answer.toolCalls ?? []).map((call) => ({
        id: call.id ?? `call_${++callIds}`,
        type: 'function',
        function: {
          name: call.name,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
        },
      }));
      const content = answer.content ?? (toolCalls.length > 0 ? null : '');
      const usage = answer.usage ?? {
        prompt_tokens: Math.max(1, estimateTokens(JSON.stringify([request.messages, request.tools])).tokens),
        completion_tokens: Math.max(
          1,
          estimateTokens((content ?? '') + toolCalls.map((c) => c.function.arguments).join('')).tokens,
        ),
      };
      return {
        status: answer.status ?? 200,
        trickleMs: answer.trickleMs,
        json: {
          id: `chatcmpl-fake-${chats.length}`,
          object: 'chat.completion',
          created: 0,
          model: request.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
              finish_reason: answer.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
            },
          ],
          usage: {
            prompt_tokens: usage.prompt_tokens,
            completion_tokens: usage.completion_tokens,
            total_tokens: usage.prompt_tokens + usage.completion_tokens,
            prompt_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
          },
        },
      };
    }),
  );

  const apiRoot = `${server.url}/v1`;
  return Object.assign(server, {
    apiRoot,
    chats,
    on: (method: string, path: string, handler: FakeHandler) => on(method, path, guarded(handler)),
    respondWith(next: FakeChatScript) {
      script = next;
      queued = 0;
    },
    failWith(reply: FakeReply | undefined) {
      failure = reply;
    },
    profile(profileOptions: FakeChatModelProfileOptions = {}): FakeChatModelProfile {
      const remoteModelId = models[0] ?? FAKE_CHAT_MODEL_ID;
      return {
        displayName: profileOptions.displayName ?? 'Fake chat model',
        providerKind: 'kindCompatible',
        baseUrl: apiRoot,
        auth: { mode: 'apiKey', apiKey: profileOptions.apiKey ?? 'sk-fake-chat-model-key' },
        configuredModels: [
          {
            remoteModelId,
            supportsStructuredOutput: true,
            supportsToolUse: true,
            maxContextTokens: 32768,
            // Not in the built-in catalog, so without prices every cost would read zero.
            inputCostPer1MUsd: 1,
            outputCostPer1MUsd: 4,
            cachedInputCostPer1MUsd: 0.25,
            ...profileOptions.model,
          },
        ],
        purposeBindings: [{ purpose: 'reviewDefault', remoteModelId }],
      };
    },
  });
}

function errorReply(status: number, message: string): FakeReply {
  return { status, json: { error: { message, type: 'fake_error', param: null, code: null } } };
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

function readChatRequest(json: unknown, headers: IncomingHttpHeaders): FakeChatRequest {
  const body = asRecord(json) ?? {};
  const tools = (Array.isArray(body.tools) ? body.tools : []).map((tool) => {
    const fn = asRecord(asRecord(tool)?.function) ?? {};
    return {
      name: String(fn.name ?? ''),
      description: String(fn.description ?? ''),
      parameters: asRecord(fn.parameters) ?? {},
    };
  });
  const choice = body.tool_choice;
  const named = asRecord(asRecord(choice)?.function)?.name;
  const toolChoice: AiToolChoice | undefined =
    choice === 'auto' || choice === 'required' || choice === 'none'
      ? choice
      : typeof named === 'string'
        ? { name: named }
        : undefined;
  const format = asRecord(body.response_format);
  const schema = asRecord(format?.json_schema);
  return {
    body,
    model: String(body.model ?? ''),
    messages: (Array.isArray(body.messages) ? body.messages : []).map((m) => asRecord(m) ?? {}),
    tools,
    toolChoice,
    responseFormat:
      format?.type === 'json_schema' && schema
        ? { name: String(schema.name ?? ''), schema: asRecord(schema.schema) ?? {} }
        : undefined,
    headers,
  };
}
