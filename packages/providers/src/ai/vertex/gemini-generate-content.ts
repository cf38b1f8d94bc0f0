import {
  type AiChatRequest,
  type AiChatResult,
  type AiFinishReason,
  type AiMessage,
  type AiToolCall,
  MarginError,
  type ReasoningEffort,
} from '@margin/core/spec';
import { type JsonObject, readArray, readObject, readString } from '../../utils/index.js';
import { spellToolMode, toolPlanOf } from '../shared/tool-choice.js';
import { usageOf } from '../shared/usage.js';
import { count } from '../shared/wire-values.js';
import { toGeminiSchema } from './gemini-schema.js';

/**
 * Thinking budgets for reasoning effort (Gemini 2.5+). `none` leaves the model's default, since
 * some models (2.5 Pro) refuse a zero budget.
 */
const THINKING_BUDGET: Readonly<Record<Exclude<ReasoningEffort, 'none'>, number>> = {
  low: 1024,
  medium: 8192,
  high: 24576,
};

/**
 * Gemini wants its `thoughtSignature` back on the function-call part it came with, and the port's
 * tool-call id is the only field that travels with a call. So the signature rides inside the id,
 * after a `~` (which neither base64 nor our generated ids contain): `call_0~<signature>`.
 */
const SIGNATURE_SEPARATOR = '~';

export function buildGenerateContentBody(request: AiChatRequest): JsonObject {
  const body: JsonObject = { contents: toGeminiContents(request.messages) };
  if (request.system?.trim()) body.systemInstruction = { parts: [{ text: request.system }] };
  const plan = toolPlanOf(request);
  if (plan) {
    body.tools = [
      {
        functionDeclarations: plan.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          parameters: toGeminiSchema(tool.parameters),
        })),
      },
    ];
    body.toolConfig = {
      functionCallingConfig: spellToolMode<JsonObject>(plan.mode, {
        auto: { mode: 'AUTO' },
        required: { mode: 'ANY' },
        none: { mode: 'NONE' },
        tool: (name) => ({ mode: 'ANY', allowedFunctionNames: [name] }),
      }),
    };
  }
  const generation: JsonObject = {};
  if (request.temperature !== undefined) generation.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) generation.maxOutputTokens = request.maxOutputTokens;
  if (request.responseFormat) {
    generation.responseMimeType = 'application/json';
    generation.responseSchema = toGeminiSchema(request.responseFormat.schema);
  }
  if (request.reasoningEffort && request.reasoningEffort !== 'none') {
    generation.thinkingConfig = { thinkingBudget: THINKING_BUDGET[request.reasoningEffort] };
  }
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  return body;
}

function toGeminiContents(messages: readonly AiMessage[]): JsonObject[] {
  const contents: Array<{ role: 'user' | 'model'; parts: JsonObject[] }> = [];
  const push = (role: 'user' | 'model', parts: JsonObject[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    if (message.role === 'user') push('user', message.content ? [{ text: message.content }] : []);
    else if (message.role === 'assistant') {
      push('model', [
        ...(message.content ? [{ text: message.content }] : []),
        ...(message.toolCalls ?? []).map((call) => {
          const signature = call.id.split(SIGNATURE_SEPARATOR)[1];
          return {
            functionCall: { name: call.name, args: readObject(call.arguments) ?? {} },
            ...(signature ? { thoughtSignature: signature } : {}),
          };
        }),
      ]);
    } else {
      push('user', [{ functionResponse: { name: message.toolName, response: { result: message.content } } }]);
    }
  }
  return contents;
}

export function parseGenerateContentBody(body: unknown, provider: string): AiChatResult {
  const response = readObject(body);
  const candidate = readObject(readArray(response?.candidates)[0]);
  const usage = usageFrom(readObject(response?.usageMetadata));
  if (!candidate) {
    if (readString(readObject(response?.promptFeedback)?.blockReason)) {
      return { text: '', toolCalls: [], finishReason: 'contentFilter', usage, protocolMode: 'generateContentApi' };
    }
    throw MarginError.provider('invalidResponse', `${provider} answered without a candidate.`);
  }
  const texts: string[] = [];
  const toolCalls: AiToolCall[] = [];
  for (const part of readArray(readObject(candidate.content)?.parts).map((item) => readObject(item))) {
    if (!part) continue;
    const call = readObject(part.functionCall);
    if (call) {
      const base = readString(call.id) ?? `call_${toolCalls.length}`;
      const signature = readString(part.thoughtSignature);
      toolCalls.push({
        id: signature ? `${base}${SIGNATURE_SEPARATOR}${signature}` : base,
        name: readString(call.name) ?? '',
        arguments: call.args ?? {},
      });
    } else if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
  }
  return {
    text: texts.join(''),
    toolCalls,
    finishReason: finishReasonOf(readString(candidate.finishReason), toolCalls.length > 0),
    usage,
    protocolMode: 'generateContentApi',
  };
}

/** Thoughts are billed as output, so output includes them; reasoning reports them apart. */
function usageFrom(meta: JsonObject | undefined) {
  const prompt = count(meta?.promptTokenCount) + count(meta?.toolUsePromptTokenCount);
  const cached = count(meta?.cachedContentTokenCount);
  const thoughts = count(meta?.thoughtsTokenCount);
  return usageOf({
    inputTokens: prompt - cached,
    cachedInputTokens: cached,
    outputTokens: count(meta?.candidatesTokenCount) + thoughts,
    reasoningTokens: thoughts,
  });
}

function finishReasonOf(reason: string | undefined, hasToolCalls: boolean): AiFinishReason {
  if (hasToolCalls && (reason === 'STOP' || reason === undefined)) return 'toolCalls';
  switch (reason) {
    case 'STOP':
    case undefined:
      return 'stop';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'contentFilter';
    default:
      return 'other';
  }
}
