import type { AiKindContractChatAnswer, AiKindContractHarness, AiKindContractRequest } from '@margin/core/testing';
import type { FakeHandler, FakeHttpServer, FakeReply, FakeRequest } from './fake-http-server.js';

/** What a vendor fake answers the next chat request with. */
export type ScriptedChat = { kind: 'answer'; answer: AiKindContractChatAnswer } | { kind: 'tooLong' };

/** The fake controls `describeAiProviderKindContract` drives, shared by the vendor fakes. */
export type AiKindFakeControls = Pick<
  AiKindContractHarness,
  'nextChatAnswer' | 'nextChatFailsContextLength' | 'nextEmbeddings' | 'requests' | 'close'
>;

export interface AiKindFakeScript {
  controls: AiKindFakeControls;
  /** The scripted chat outcome, consumed; a plain short answer when nothing is scripted. */
  takeChat(): ScriptedChat;
  /** The scripted vector for the next embedded text, consumed; a fixed one when nothing is scripted. */
  takeVector(): number[];
  /** Adds a route that answers `refused(request)` unless `accepted(request)`. */
  onGuarded(method: string, path: string, handler: FakeHandler): void;
}

const PLAIN_ANSWER: AiKindContractChatAnswer = { text: 'OK', inputTokens: 1, outputTokens: 1 };

/**
 * The scripting every vendor fake shares: one-shot chat outcomes and embedding vectors, the
 * requests as the contract reads them, and routes that refuse any credential but the valid one.
 */
export function aiKindFakeScript(
  server: FakeHttpServer,
  auth: { accepted(request: FakeRequest): boolean; refused(request: FakeRequest): FakeReply },
): AiKindFakeScript {
  let chat: ScriptedChat | undefined;
  let vectors: number[][] = [];
  return {
    controls: {
      nextChatAnswer(answer) {
        chat = { kind: 'answer', answer };
      },
      nextChatFailsContextLength() {
        chat = { kind: 'tooLong' };
      },
      nextEmbeddings(next) {
        vectors = next.map((v) => [...v]);
      },
      requests: () => server.requests.map(contractRequestOf),
      close: () => server.close(),
    },
    takeChat() {
      const next = chat ?? { kind: 'answer', answer: PLAIN_ANSWER };
      chat = undefined;
      return next;
    },
    takeVector: () => vectors.shift() ?? [0.5, 0.5, 0.5],
    onGuarded(method, path, handler) {
      server.on(method, path, (request) => (auth.accepted(request) ? handler(request) : auth.refused(request)));
    },
  };
}

/** A fake's request as the contract suite reads it: path with the query string, body as text. */
export function contractRequestOf(request: FakeRequest): AiKindContractRequest {
  const query = request.query.toString();
  return {
    method: request.method,
    path: query ? `${request.path}?${query}` : request.path,
    headers: request.headers,
    body: request.text,
  };
}

/** The texts of an embeddings request body's `input` (a string or a list). */
export function inputsOf(body: unknown): string[] {
  const input = (body as { input?: unknown } | undefined)?.input;
  return Array.isArray(input) ? input.map(String) : input === undefined ? [] : [String(input)];
}
