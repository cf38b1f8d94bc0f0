import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { MarginError } from '@margin/core';
import type { AiChatRequest, AiChatResult, AiModelV1 } from '@margin/core/spec';

/** One recorded call: the request's key and the model's answer. */
export interface RecordedAnswer {
  request: string;
  /** What the call was for, to read the file: review, repair, verify or judge. */
  purpose: string;
  answer: Pick<AiChatResult, 'text' | 'toolCalls' | 'finishReason' | 'usage'>;
}

/**
 * The key of a chat request: a hash of everything that decides the answer — instructions,
 * conversation, tools, schema, temperature and limits — and nothing that does not (the model's
 * name, the abort signal). A changed prompt is a new key: replaying then fails instead of
 * answering a question that was never asked.
 */
export function requestKey(request: AiChatRequest): string {
  const { signal: _signal, ...rest } = request;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex');
}

export async function readRecordedAnswers(file: string): Promise<RecordedAnswer[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as RecordedAnswer);
}

export async function writeRecordedAnswers(file: string, answers: readonly RecordedAnswer[]): Promise<void> {
  // Sorted by key, so re-recording the same answers leaves the file byte for byte as it was.
  const sorted = [...answers].sort((a, b) => a.request.localeCompare(b.request));
  await writeFile(file, sorted.map((a) => `${JSON.stringify(a)}\n`).join(''));
}

/** A model that answers only from recordings, by request key; anything else is an error naming the case. */
export function replayingModel(answers: readonly RecordedAnswer[], caseId: string): AiModelV1 {
  const byKey = new Map(answers.map((a) => [a.request, a.answer]));
  return {
    specificationVersion: 'v1',
    providerKind: 'kindCompatible',
    remoteModelId: 'scripted',
    async chat(request) {
      const found = byKey.get(requestKey(request));
      if (!found) {
        throw MarginError.provider(
          'invalidResponse',
          `No recorded answer for a request of case ${caseId}: the prompt changed since the answers were recorded (margin eval --record-scripted records them again).`,
        );
      }
      return { ...found, protocolMode: 'chatCompletions' };
    },
    async embed() {
      throw MarginError.provider('invalidResponse', 'The scripted model has no embeddings.');
    },
  };
}

/** Wraps a model and keeps every answer it gives with its request's key. */
export function recordingModel(
  inner: AiModelV1,
  purposeOf: (request: AiChatRequest) => string,
): AiModelV1 & { recorded: RecordedAnswer[] } {
  const recorded: RecordedAnswer[] = [];
  return {
    specificationVersion: 'v1',
    providerKind: inner.providerKind,
    remoteModelId: inner.remoteModelId,
    recorded,
    async chat(request) {
      const result = await inner.chat(request);
      const { text, toolCalls, finishReason, usage } = result;
      recorded.push({
        request: requestKey(request),
        purpose: purposeOf(request),
        answer: { text, toolCalls, finishReason, usage },
      });
      return result;
    },
    embed: (texts, options) => inner.embed(texts, options),
  };
}
