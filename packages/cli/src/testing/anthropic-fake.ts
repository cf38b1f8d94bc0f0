/**
 * Test support: an Anthropic-shaped model on loopback (`POST /v1/messages`, the wire `kindAssistant`
 * speaks), scripted with the same `FakeChatRequest → FakeChatAnswer` functions as the
 * OpenAI-compatible fake, so `divisionReviewer()` and friends answer it too. Every request stays in
 * `requests` as sent, to check the wire shape.
 */
import type { AiToolDefinition } from '@margin/core/spec';
import {
  type FakeChatAnswer,
  type FakeChatRequest,
  type FakeHttpServer,
  type FakeRequest,
  startFakeHttpServer,
} from '@margin/providers/testing';

type Json = Record<string, unknown>;

export async function startAnthropicFake(
  respond: (request: FakeChatRequest) => FakeChatAnswer,
): Promise<FakeHttpServer> {
  const server = await startFakeHttpServer();
  let ids = 0;
  server.on('POST', '/v1/messages', (raw) => {
    const answer = respond(asChatRequest(raw));
    if (answer.status !== undefined && answer.status >= 400) {
      return {
        status: answer.status,
        json: answer.errorBody ?? {
          type: 'error',
          error: { type: 'invalid_request_error', message: `The fake answered ${answer.status}.` },
        },
      };
    }
    const toolUses = (answer.toolCalls ?? []).map((call) => ({
      type: 'tool_use',
      id: call.id ?? `toolu_${++ids}`,
      name: call.name,
      input: call.arguments ?? {},
    }));
    const text = answer.content ?? '';
    return {
      json: {
        id: `msg_${++ids}`,
        type: 'message',
        role: 'assistant',
        model: (raw.json as Json).model,
        content: [...(text ? [{ type: 'text', text }] : []), ...toolUses],
        stop_reason: toolUses.length > 0 ? 'tool_use' : 'end_turn',
        // The script's own counts when it gives them (a costly call), else counts from the text.
        usage: {
          input_tokens: answer.usage?.prompt_tokens ?? Math.ceil(raw.text.length / 4),
          output_tokens:
            answer.usage?.completion_tokens ??
            Math.max(1, Math.ceil((text.length + JSON.stringify(toolUses).length) / 4)),
        },
      },
    };
  });
  return server;
}

/** The Messages API body read back into the OpenAI fake's terms (system first, text blocks joined). */
function asChatRequest(raw: FakeRequest): FakeChatRequest {
  const body = (raw.json ?? {}) as Json;
  const textOf = (content: unknown): string =>
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((b: Json) => (b.type === 'text' ? String(b.text) : '')).join('')
        : '';
  const system = textOf(body.system);
  const messages = [
    ...(system ? [{ role: 'system', content: system }] : []),
    ...((body.messages as Json[] | undefined) ?? []).map((m) => ({ role: m.role, content: textOf(m.content) })),
  ];
  const tools = ((body.tools as Json[] | undefined) ?? []).map(
    (t): AiToolDefinition => ({
      name: String(t.name),
      description: String(t.description ?? ''),
      parameters: (t.input_schema ?? {}) as Record<string, unknown>,
    }),
  );
  const choice = body.tool_choice as Json | undefined;
  const format = (body.output_config as Json | undefined)?.format as Json | undefined;
  return {
    body,
    model: String(body.model),
    messages,
    tools,
    toolChoice: choice?.type === 'tool' ? { name: String(choice.name) } : undefined,
    responseFormat: format
      ? { name: 'output_config', schema: (format.schema ?? {}) as Record<string, unknown> }
      : undefined,
    headers: raw.headers,
  };
}
