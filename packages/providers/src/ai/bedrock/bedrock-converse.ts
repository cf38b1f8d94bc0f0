import { type AiChatRequest, type AiChatResult, type AiToolCall, MarginError } from '@margin/core/spec';
import { type JsonObject, readArray, readObject, readString } from '../../utils/index.js';
import { alternatingTurns, type TurnBlocks, toolTurnsAsText } from '../shared/alternating-turns.js';
import { finishReasonOfStop } from '../shared/stop-reason.js';
import { answerToolFor, spellToolMode, toolPlanOf } from '../shared/tool-choice.js';
import { usageOf } from '../shared/usage.js';
import { count, safeName } from '../shared/wire-values.js';

export interface ConverseCall {
  body: JsonObject;
  /** The forced tool whose input is the structured answer, for models without `outputConfig`. */
  answerTool?: string | undefined;
}

/**
 * The Converse request (`POST /model/{id}/converse`), providers.md §6.7. Structured output uses
 * `outputConfig.textFormat` (schema as a JSON string) for models declared with structured output;
 * others get a forced answer tool, which Converse supports for every tool-capable model family.
 */
export function buildConverseBody(request: AiChatRequest, options: { nativeStructuredOutput: boolean }): ConverseCall {
  const answerTool =
    request.responseFormat && !options.nativeStructuredOutput ? answerToolFor(request.responseFormat) : undefined;
  const plan = toolPlanOf(request, answerTool);
  // Converse has no `none` choice: it is said by sending no toolConfig (and then tool blocks as text).
  const toolChoice =
    plan &&
    spellToolMode<JsonObject | undefined>(plan.mode, {
      auto: { auto: {} },
      required: { any: {} },
      none: undefined,
      tool: (name) => ({ tool: { name } }),
    });
  const toolConfig =
    plan && toolChoice
      ? {
          tools: plan.tools.map((tool) => ({
            toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.parameters } },
          })),
          toolChoice,
        }
      : undefined;
  const body: JsonObject = {
    messages: alternatingTurns(request.messages, toolConfig ? CONVERSE_BLOCKS : CONVERSE_TEXT_BLOCKS),
  };
  if (request.system?.trim()) body.system = [{ text: request.system }];
  const inference: JsonObject = {};
  if (request.maxOutputTokens !== undefined) inference.maxTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) inference.temperature = request.temperature;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  if (request.responseFormat && options.nativeStructuredOutput) {
    body.outputConfig = {
      textFormat: {
        type: 'json_schema',
        structure: {
          jsonSchema: {
            schema: JSON.stringify(request.responseFormat.schema),
            name: safeName(request.responseFormat.name),
          },
        },
      },
    };
  }
  if (toolConfig) body.toolConfig = toolConfig;
  return { body, answerTool: answerTool?.name };
}

const CONVERSE_BLOCKS: TurnBlocks = {
  text: (text) => ({ text }),
  toolUse: (call) => ({ toolUse: { toolUseId: call.id, name: call.name, input: readObject(call.arguments) ?? {} } }),
  toolResult: (message) => ({
    toolResult: { toolUseId: message.toolCallId, content: [{ text: message.content }], status: 'success' },
  }),
};

const CONVERSE_TEXT_BLOCKS: TurnBlocks = toolTurnsAsText((text) => ({ text }));

export function parseConverseBody(body: unknown, answerTool: string | undefined): AiChatResult {
  const response = readObject(body);
  const message = readObject(readObject(response?.output)?.message);
  if (!response || !message || !Array.isArray(message.content)) {
    throw MarginError.provider('invalidResponse', 'AWS Bedrock answered without an output message.');
  }
  const texts: string[] = [];
  const toolCalls: AiToolCall[] = [];
  let answer: string | undefined;
  for (const block of readArray(message.content).map((item) => readObject(item))) {
    const text = readString(block?.text);
    if (text !== undefined) texts.push(text);
    const toolUse = readObject(block?.toolUse);
    if (toolUse) {
      const name = readString(toolUse.name) ?? '';
      if (answerTool !== undefined && name === answerTool) answer = JSON.stringify(toolUse.input ?? {});
      else {
        toolCalls.push({
          id: readString(toolUse.toolUseId) ?? `tooluse_${toolCalls.length}`,
          name,
          arguments: toolUse.input ?? {},
        });
      }
    }
  }
  const usage = readObject(response.usage);
  const stop = readString(response.stopReason);
  return {
    text: answer ?? texts.join(''),
    toolCalls,
    finishReason: answer !== undefined && stop === 'tool_use' ? 'stop' : finishReasonOfStop(stop),
    // Converse reports cache reads and writes beside inputTokens, not inside it.
    usage: usageOf({
      inputTokens: count(usage?.inputTokens),
      cachedInputTokens: count(usage?.cacheReadInputTokens),
      cacheWriteTokens: count(usage?.cacheWriteInputTokens),
      outputTokens: count(usage?.outputTokens),
    }),
    protocolMode: 'converseApi',
  };
}
