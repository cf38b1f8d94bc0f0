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

/**
 * The Responses API (`POST …/responses`), providers.md §6.1. Calls are stateless (`store: false`):
 * the whole conversation, tool calls and their outputs included, is sent every time.
 */
export function buildResponsesBody(model: string, request: AiChatRequest): JsonObject {
  const body: JsonObject = { model, input: toResponsesInput(request), store: false };
  if (request.system?.trim()) body.instructions = request.system;
  const plan = toolPlanOf(request);
  if (plan) {
    body.tools = plan.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: false,
    }));
    body.tool_choice = spellToolMode<unknown>(plan.mode, {
      auto: 'auto',
      required: 'required',
      none: 'none',
      tool: (name) => ({ type: 'function', name }),
    });
  }
  if (request.responseFormat) {
    body.text = {
      format: {
        type: 'json_schema',
        name: safeName(request.responseFormat.name),
        schema: request.responseFormat.schema,
        strict: isStrictCompatible(request.responseFormat.schema),
      },
    };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.reasoningEffort !== undefined) body.reasoning = { effort: request.reasoningEffort };
  return body;
}

function toResponsesInput(request: AiChatRequest): JsonObject[] {
  const items: JsonObject[] = [];
  for (const message of request.messages) {
    if (message.role === 'user') {
      items.push({ role: 'user', content: [{ type: 'input_text', text: message.content }] });
    } else if (message.role === 'assistant') {
      if (message.content) {
        items.push({ role: 'assistant', content: [{ type: 'output_text', text: message.content }] });
      }
      for (const call of message.toolCalls ?? []) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
        });
      }
    } else {
      items.push({ type: 'function_call_output', call_id: message.toolCallId, output: message.content });
    }
  }
  return items;
}

export function parseResponsesBody(body: unknown, provider: string): AiChatResult {
  const response = readObject(body);
  const output = readArray(response?.output);
  if (!response || (!Array.isArray(response.output) && response.status !== 'failed')) {
    throw MarginError.provider('invalidResponse', `${provider} answered without a Responses API output.`);
  }
  if (response.status === 'failed') {
    const reason = readString(readObject(response.error)?.message) ?? 'no reason given';
    throw MarginError.provider('rejected', `${provider} could not complete the response: ${reason}`);
  }
  const texts: string[] = [];
  const toolCalls: AiToolCall[] = [];
  let refused = false;
  for (const item of output.map((item) => readObject(item))) {
    if (item?.type === 'message') {
      for (const part of readArray(item.content).map((item) => readObject(item))) {
        if (part?.type === 'output_text') texts.push(readString(part.text) ?? '');
        if (part?.type === 'refusal') {
          refused = true;
          texts.push(readString(part.refusal) ?? '');
        }
      }
    } else if (item?.type === 'function_call') {
      toolCalls.push({
        id: readString(item.call_id) ?? readString(item.id) ?? `call_${toolCalls.length}`,
        name: readString(item.name) ?? '',
        arguments: parseToolArguments(item.arguments),
      });
    }
  }
  const usage = readObject(response.usage);
  const input = count(usage?.input_tokens);
  const cached = count(readObject(usage?.input_tokens_details)?.cached_tokens);
  return {
    text: texts.join(''),
    toolCalls,
    finishReason: finishReasonOf(response, toolCalls.length > 0, refused),
    usage: usageOf({
      inputTokens: input - cached,
      cachedInputTokens: cached,
      cacheWriteTokens: count(readObject(usage?.input_tokens_details)?.cache_write_tokens),
      outputTokens: count(usage?.output_tokens),
      reasoningTokens: count(readObject(usage?.output_tokens_details)?.reasoning_tokens),
    }),
    protocolMode: 'responses',
  };
}

function finishReasonOf(response: JsonObject, hasToolCalls: boolean, refused: boolean): AiFinishReason {
  if (refused) return 'contentFilter';
  if (response.status === 'incomplete') {
    const reason = readString(readObject(response.incomplete_details)?.reason);
    if (reason === 'max_output_tokens') return 'length';
    if (reason === 'content_filter') return 'contentFilter';
    return 'other';
  }
  if (hasToolCalls) return 'toolCalls';
  return response.status === 'completed' || response.status === undefined ? 'stop' : 'other';
}
