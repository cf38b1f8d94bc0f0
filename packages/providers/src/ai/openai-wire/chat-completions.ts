import {
  type AiChatRequest,
  type AiChatResult,
  type AiFinishReason,
  type AiToolCall,
  MarginError,
} from '@margin/core/spec';
import { type JsonObject, readArray, readObject, readString } from '../../utils/index.js';
import { spellToolMode, toolPlanOf } from '../shared/tool-choice.js';
import { usageOf } from '../shared/usage.js';
import { count, parseToolArguments, safeName } from '../shared/wire-values.js';
import { isStrictCompatible } from './strict-schema.js';

export interface ChatCompletionsOptions {
  /**
   * `max_completion_tokens` (OpenAI, Azure, LiteLLM) or `max_tokens`, which many OpenAI-compatible
   * servers (older vLLM, Ollama, LM Studio) still take instead.
   */
  maxTokensField: 'max_completion_tokens' | 'max_tokens';
}

/** Chat Completions (`POST …/chat/completions`), providers.md §6.1. */
export function buildChatCompletionsBody(
  model: string,
  request: AiChatRequest,
  options: ChatCompletionsOptions,
): JsonObject {
  const messages: JsonObject[] = [];
  if (request.system?.trim()) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.role === 'user') messages.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      const calls = message.toolCalls ?? [];
      messages.push({
        role: 'assistant',
        content: message.content || (calls.length > 0 ? null : ''),
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                type: 'function',
                function: {
                  name: call.name,
                  arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
                },
              })),
            }
          : {}),
      });
    } else messages.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
  }
  const body: JsonObject = { model, messages };
  const plan = toolPlanOf(request);
  if (plan) {
    body.tools = plan.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
    body.tool_choice = spellToolMode<unknown>(plan.mode, {
      auto: 'auto',
      required: 'required',
      none: 'none',
      tool: (name) => ({ type: 'function', function: { name } }),
    });
  }
  if (request.responseFormat) {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: safeName(request.responseFormat.name),
        schema: request.responseFormat.schema,
        strict: isStrictCompatible(request.responseFormat.schema),
      },
    };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) body[options.maxTokensField] = request.maxOutputTokens;
  if (request.reasoningEffort !== undefined) body.reasoning_effort = request.reasoningEffort;
  return body;
}

export function parseChatCompletionsBody(body: unknown, provider: string): AiChatResult {
  const choice = readObject(readArray(readObject(body)?.choices)[0]);
  const message = readObject(choice?.message);
  if (!choice || !message) {
    throw MarginError.provider('invalidResponse', `${provider} answered without a chat completion choice.`);
  }
  const toolCalls: AiToolCall[] = readArray(message.tool_calls)
    .map((item) => readObject(item))
    .filter((call): call is JsonObject => call !== undefined)
    .map((call, index) => {
      const fn = readObject(call.function);
      return {
        id: readString(call.id) ?? `call_${index}`,
        name: readString(fn?.name) ?? '',
        arguments: parseToolArguments(fn?.arguments),
      };
    });
  const refusal = readString(message.refusal);
  const usage = readObject(readObject(body)?.usage);
  const prompt = count(usage?.prompt_tokens);
  const cached = count(readObject(usage?.prompt_tokens_details)?.cached_tokens);
  return {
    text: contentText(message.content) || refusal || '',
    toolCalls,
    finishReason: refusal ? 'contentFilter' : finishReasonOf(readString(choice.finish_reason), toolCalls.length > 0),
    // Compatible servers may send no usage at all: zeros then, not an error.
    usage: usageOf({
      inputTokens: prompt - cached,
      cachedInputTokens: cached,
      cacheWriteTokens: count(readObject(usage?.prompt_tokens_details)?.cache_write_tokens),
      outputTokens: count(usage?.completion_tokens),
      reasoningTokens: count(readObject(usage?.completion_tokens_details)?.reasoning_tokens),
    }),
    protocolMode: 'chatCompletions',
  };
}

/** `content` is a string, null, or (some compatible servers) an array of text parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return readArray(content)
    .map((part) => readString(readObject(part)?.text) ?? '')
    .join('');
}

function finishReasonOf(reason: string | undefined, hasToolCalls: boolean): AiFinishReason {
  // Some compatible servers report `stop` even when they answered with tool calls.
  if (hasToolCalls) return 'toolCalls';
  switch (reason) {
    case 'stop':
    case 'end_turn':
    case undefined:
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'toolCalls';
    case 'content_filter':
      return 'contentFilter';
    default:
      return 'other';
  }
}
