import type { AiChatRequest, AiChatResult, AiModelV1, AiUsage } from '../../ai-model/index.js';
import { MarginError } from '../../kernel/index.js';

export type ScriptedAnswer =
  | Partial<AiChatResult>
  | Error
  | ((request: AiChatRequest, index: number) => Partial<AiChatResult> | Error);

const usageOf = (input: number, output: number): AiUsage => ({
  inputTokens: input,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: output,
  reasoningTokens: 0,
});

/**
 * Test support: a model answering from a script (in order, or by a function of the request),
 * recording every request. Usage is derived from text length so cost is never zero by accident.
 */
export function scriptedModel(
  answers: ScriptedAnswer[] | ((request: AiChatRequest, index: number) => Partial<AiChatResult> | Error),
  remoteModelId = 'scripted-model',
): AiModelV1 & { requests: AiChatRequest[] } {
  const requests: AiChatRequest[] = [];
  return {
    specificationVersion: 'v1',
    providerKind: 'kindCompatible',
    remoteModelId,
    requests,
    async chat(request) {
      const index = requests.length;
      requests.push(request);
      const scripted = typeof answers === 'function' ? answers : answers[index];
      if (scripted === undefined) throw MarginError.internal(`no scripted answer for call ${index + 1}`);
      const answer = typeof scripted === 'function' ? scripted(request, index) : scripted;
      if (answer instanceof Error) throw answer;
      const prompt = [request.system ?? '', ...request.messages.map((m) => m.content)].join('').length;
      return {
        text: '',
        toolCalls: [],
        finishReason: 'stop',
        usage: usageOf(Math.ceil(prompt / 4), Math.ceil((answer.text ?? '').length / 4) + 1),
        protocolMode: 'chatCompletions',
        ...answer,
      };
    },
    async embed() {
      throw MarginError.internal('embeddings are not scripted');
    },
  };
}
