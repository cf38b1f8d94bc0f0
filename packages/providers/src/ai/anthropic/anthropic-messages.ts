import { type AiChatRequest, type AiChatResult, type AiToolCall, MarginError } from '@margin/core/spec';
import { type JsonObject, readArray, readObject, readString } from '../../utils/index.js';
import { alternatingTurns, type TurnBlocks } from '../shared/alternating-turns.js';
import { finishReasonOfStop } from '../shared/stop-reason.js';
import { answerToolFor, spellToolMode, toolPlanOf } from '../shared/tool-choice.js';
import { usageOf } from '../shared/usage.js';
import { count } from '../shared/wire-values.js';

export interface MessagesBodyOptions {
  /** Anthropic requires `max_tokens`; used when the request names none. */
  defaultMaxTokens: number;
  /**
   * Native structured output (`output_config.format`). Off for models configured without
   * `supportsStructuredOutput`: then the schema becomes a forced tool whose input is the answer.
   */
  nativeStructuredOutput: boolean;
}

export interface MessagesCall {
  body: JsonObject;
  /** The synthetic tool whose input is the structured answer, when one is forced. */
  answerTool?: string | undefined;
}

/** The Messages API request (`POST /v1/messages`), providers.md §6.6. */
export function buildMessagesBody(model: string, request: AiChatRequest, options: MessagesBodyOptions): MessagesCall {
  const body: JsonObject = {
    model,
    max_tokens: request.maxOutputTokens ?? options.defaultMaxTokens,
    messages: alternatingTurns(request.messages, MESSAGES_BLOCKS),
  };
  if (request.system?.trim()) {
    // Review prompts repeat across files; a cache breakpoint is free below the minimum cacheable size.
    body.system = [{ type: 'text', text: request.system, cache_control: { type: 'ephemeral' } }];
  }
  const outputConfig: JsonObject = {};
  const answerTool =
    request.responseFormat && !options.nativeStructuredOutput ? answerToolFor(request.responseFormat) : undefined;
  if (request.responseFormat && options.nativeStructuredOutput) {
    outputConfig.format = { type: 'json_schema', schema: request.responseFormat.schema };
  }
  const plan = toolPlanOf(request, answerTool);
  if (plan) {
    body.tools = plan.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
    }));
    // `none` keeps the tools declared: Anthropic refuses tool_use blocks in the history without them.
    body.tool_choice = spellToolMode<JsonObject>(plan.mode, {
      auto: { type: 'auto' },
      required: { type: 'any' },
      none: { type: 'none' },
      tool: (name) => ({ type: 'tool', name }),
    });
  }
  // `high` is Anthropic's default effort and `none` has no equivalent without extended thinking,
  // so only lower efforts are sent (models without the effort control are then left untouched).
  if (request.reasoningEffort === 'low' || request.reasoningEffort === 'medium') {
    outputConfig.effort = request.reasoningEffort;
  }
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;
  if (request.temperature !== undefined) body.temperature = request.temperature;
  return { body, answerTool: answerTool?.name };
}

const MESSAGES_BLOCKS: TurnBlocks = {
  text: (text) => ({ type: 'text', text }),
  toolUse: (call) => ({ type: 'tool_use', id: call.id, name: call.name, input: readObject(call.arguments) ?? {} }),
  toolResult: (message) => ({ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content }),
};

export function parseMessagesBody(body: unknown, answerTool: string | undefined): AiChatResult {
  const message = readObject(body);
  if (!message || !Array.isArray(message.content)) {
    throw MarginError.provider('invalidResponse', 'Anthropic answered without message content.');
  }
  const texts: string[] = [];
  const toolCalls: AiToolCall[] = [];
  let answer: string | undefined;
  for (const block of readArray(message.content).map((item) => readObject(item))) {
    if (block?.type === 'text') texts.push(readString(block.text) ?? '');
    if (block?.type === 'tool_use') {
      const name = readString(block.name) ?? '';
      if (answerTool !== undefined && name === answerTool) answer = JSON.stringify(block.input ?? {});
      else
        toolCalls.push({ id: readString(block.id) ?? `toolu_${toolCalls.length}`, name, arguments: block.input ?? {} });
    }
  }
  const usage = readObject(message.usage);
  const stop = readString(message.stop_reason);
  return {
    text: answer ?? texts.join(''),
    toolCalls,
    finishReason: answer !== undefined && stop === 'tool_use' ? 'stop' : finishReasonOfStop(stop),
    // Anthropic's input_tokens already excludes cache reads and writes (providers.md §6.9).
    usage: usageOf({
      inputTokens: count(usage?.input_tokens),
      cachedInputTokens: count(usage?.cache_read_input_tokens),
      cacheWriteTokens: count(usage?.cache_creation_input_tokens),
      outputTokens: count(usage?.output_tokens),
    }),
    protocolMode: 'messagesApi',
  };
}
