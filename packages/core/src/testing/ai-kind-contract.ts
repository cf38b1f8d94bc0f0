import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modesOf } from '../ai/index.js';
import {
  type AiChatRequest,
  type AiConnectionConfig,
  type AiModelSpec,
  type AiModelV1,
  type AiProviderKindV1,
  type AiUsage,
  BUILT_IN_PROTOCOL_MODES,
  type ProtocolMode,
  settingKeysOf,
  settingsSchemaProblems,
} from '../ai-model/index.js';
import { MarginError, REGISTERED_ID_PATTERN } from '../kernel/index.js';
import { marginErrorOf } from './async-results.js';

/** One request as the kind's fake received it. */
export interface AiKindContractRequest {
  method: string;
  /** Path and query string as received, e.g. `/v1/models?limit=1`. */
  path: string;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The body text as received; empty when there was none. */
  body: string;
}

/** What the fake answers to the next chat request, in the vendor's own wire format. */
export interface AiKindContractChatAnswer {
  text: string;
  /** Input tokens the vendor reports, none of them cached. */
  inputTokens: number;
  outputTokens: number;
}

/**
 * What a kind's contract run needs: the kind, wired to an HTTP fake of its vendor, and semantic
 * controls the fake implements in the vendor's wire format. Every control applies to the next
 * matching request only (a later call replaces one not yet used); other requests get a plain answer.
 */
export interface AiKindContractHarness {
  /** Created on a runtime that reaches the fake (private egress allowed, short retry waits). */
  kind: AiProviderKindV1;
  /**
   * A connection the fake accepts on every route, built as core builds it (`aiConnectionConfigOf`
   * of `@margin/core/spec`): the kind's settings in `settings`, only real query parameters left.
   */
  connection: AiConnectionConfig;
  /** The same connection with a key the fake refuses on every route (401 or the vendor's equivalent). */
  connectionWithBadKey: AiConnectionConfig;
  /**
   * Values that must never appear in a URL, an error message, a probe summary or a warning.
   * Default: the API keys of both connections. Add the secret half of compound keys (SigV4).
   */
  secrets?: readonly string[] | undefined;
  /** A chat model the fake serves (and, when the kind discovers models, lists). */
  chatModelId: string;
  /** An embedding model the fake serves; required exactly when the kind declares an embedding protocol. */
  embeddingModelId?: string | undefined;
  /** The next chat request is answered with this text and usage, on whichever chat protocol it arrives. */
  nextChatAnswer(answer: AiKindContractChatAnswer): void;
  /** The next chat request is refused the way the vendor refuses an input longer than the context window. */
  nextChatFailsContextLength(): void;
  /** The texts of the next embedding call get these vectors, in order (needed with `embeddingModelId`). */
  nextEmbeddings?(vectors: number[][]): void;
  /** Every request the fake has received so far, in order. */
  requests(): readonly AiKindContractRequest[];
  close(): Promise<void>;
}

const TOKEN_FIELDS = [
  'inputTokens',
  'cachedInputTokens',
  'cacheWriteTokens',
  'outputTokens',
  'reasoningTokens',
] as const;

/**
 * Behaviour every `AiProviderKindV1` shows against an HTTP fake of its vendor: coherent declared
 * facts, probe and discovery outcomes, protocol-mode checks, chat through every declared chat
 * protocol with normalised usage, the context-length failure the engine splits on, cancellation,
 * embeddings, and credentials kept out of URLs and messages.
 */
export function describeAiProviderKindContract(name: string, makeHarness: () => Promise<AiKindContractHarness>): void {
  describe(`AI provider kind contract: ${name}`, () => {
    let h: AiKindContractHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(async () => {
      await h?.close();
    });

    const secretsOf = (): string[] => {
      const keys = [h.connection, h.connectionWithBadKey].map((c) => (c.auth.mode === 'apiKey' ? c.auth.apiKey : ''));
      return [...keys, ...(h.secrets ?? [])].filter((s) => s.length >= 4);
    };
    const expectNoSecret = (text: string, what: string) => {
      for (const secret of secretsOf()) expect(text.includes(secret), `${what} contains a secret`).toBe(false);
    };
    const chatModes = () => h.kind.protocols.filter((p) => p.operation === 'chat').map((p) => p.mode);
    const embeddingModes = () => h.kind.protocols.filter((p) => p.operation === 'embedding').map((p) => p.mode);
    const chatSpec = (protocolMode: ProtocolMode): AiModelSpec => ({
      remoteModelId: h.chatModelId,
      protocolMode,
      operationKinds: ['chat'],
      supportsStructuredOutput: true,
      supportsToolUse: true,
    });
    const embeddingSpec = (protocolMode: ProtocolMode, dimensions: number): AiModelSpec => ({
      remoteModelId: h.embeddingModelId ?? '',
      protocolMode,
      operationKinds: ['embedding'],
      supportsStructuredOutput: false,
      supportsToolUse: false,
      embeddingDimensions: dimensions,
    });
    const chatRequest = (marker: string, extra: Partial<AiChatRequest> = {}): AiChatRequest => ({
      system: `You review code (${marker}-system).`,
      messages: [{ role: 'user', content: `Is this diff right? (${marker}-user)` }],
      ...extra,
    });
    /** Requests received from `from` on whose body `marker` appears. */
    const carrying = (marker: string, from: number) =>
      h
        .requests()
        .slice(from)
        .filter((r) => r.body.includes(marker));
    /** A call that must fail, whether the adapter throws at once or rejects. */
    const failureOf = (call: () => Promise<unknown> | unknown) => marginErrorOf(Promise.resolve().then(call));
    const expectUsage = (usage: AiUsage, what: string) => {
      for (const field of TOKEN_FIELDS) {
        expect(Number.isFinite(usage[field]) && usage[field] >= 0, `${what}: usage.${field} is a count`).toBe(true);
      }
    };

    describe('declared facts', () => {
      it('is a v1 kind with a registered id and a display name', () => {
        expect(h.kind.specificationVersion).toBe('v1');
        expect(h.kind.kind).toMatch(REGISTERED_ID_PATTERN);
        expect(h.kind.displayName.trim()).not.toBe('');
        expect(h.connection.providerKind).toBe(h.kind.kind);
      });

      it('declares each protocol once, none of them auto, each for chat or embedding, at least one for chat', () => {
        const modes = h.kind.protocols.map((p) => p.mode);
        expect(modes.length).toBeGreaterThan(0);
        expect(new Set(modes).size).toBe(modes.length);
        expect(modes).not.toContain('auto');
        for (const p of h.kind.protocols) {
          expect(p.mode).toMatch(REGISTERED_ID_PATTERN);
          expect(['chat', 'embedding']).toContain(p.operation);
        }
        expect(chatModes().length).toBeGreaterThan(0);
        expect(modesOf(h.kind)).toEqual(['auto', ...modes]);
      });

      it('declares its endpoint, key and identity facts in the shapes core reads', () => {
        expect(typeof h.kind.supportsDiscovery).toBe('boolean');
        expect(typeof h.kind.requiresApiKey).toBe('boolean');
        if (h.kind.defaultEndpoint !== undefined) expect(h.kind.defaultEndpoint.trim()).not.toBe('');
        if (h.kind.managedIdentity !== undefined) {
          expect(h.kind.managedIdentity.hosts).toBeInstanceOf(RegExp);
          expect(h.kind.managedIdentity.hostsDescription.trim()).not.toBe('');
        }
      });

      it('declares its settings, if any, as a zod object keyed by id-shaped setting names', () => {
        expect(settingsSchemaProblems(h.kind.settings)).toEqual([]);
      });

      it('is handed its settings as core splits them out of defaultQueryParams', () => {
        const keys = settingKeysOf(h.kind);
        for (const connection of [h.connection, h.connectionWithBadKey]) {
          for (const key of Object.keys(connection.settings)) expect(keys, `setting ${key}`).toContain(key);
          for (const key of Object.keys(connection.defaultQueryParams)) {
            expect(keys, `${key} is a setting, not a query parameter`).not.toContain(key);
          }
          if (h.kind.settings) expect(h.kind.settings.safeParse(connection.settings).success).toBe(true);
        }
      });

      it('lists known models once each, only for operations it has a protocol for', () => {
        const operations = new Set(h.kind.protocols.map((p) => p.operation));
        const known = h.kind.knownModels ?? [];
        const ids = known.map((m) => m.remoteModelId.toLowerCase());
        expect(new Set(ids).size).toBe(ids.length);
        for (const model of known) {
          expect(model.remoteModelId.trim(), 'a known model id').not.toBe('');
          expect(model.operationKinds.length, model.remoteModelId).toBeGreaterThan(0);
          for (const op of model.operationKinds) expect(operations.has(op), `${model.remoteModelId}: ${op}`).toBe(true);
          for (const price of [model.inputCostPer1MUsd, model.outputCostPer1MUsd, model.cachedInputCostPer1MUsd]) {
            if (price !== undefined) expect(price, `${model.remoteModelId}: a price`).toBeGreaterThanOrEqual(0);
          }
        }
      });

      it('is given an embedding model exactly when it declares an embedding protocol', () => {
        expect(h.embeddingModelId !== undefined).toBe(embeddingModes().length > 0);
        if (h.embeddingModelId !== undefined) expect(typeof h.nextEmbeddings).toBe('function');
      });
    });

    describe('probe and discovery', () => {
      it('probes the valid connection successfully, asking the provider', async () => {
        const before = h.requests().length;
        const result = await h.kind.probe(h.connection);
        expect(result, result.summary).toMatchObject({ status: 'succeeded' });
        expect(result.summary.trim()).not.toBe('');
        expect(h.requests().length).toBeGreaterThan(before);
        expectNoSecret([result.summary, ...result.warnings].join('\n'), 'the probe result');
      });

      it('fails the probe of a refused key as a credentials failure without echoing the key', async () => {
        const before = h.requests().length;
        const result = await h.kind.probe(h.connectionWithBadKey);
        expect(result).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
        expect(result.summary.trim()).not.toBe('');
        expect(h.requests().length).toBeGreaterThan(before);
        expectNoSecret([result.summary, ...result.warnings].join('\n'), 'the probe result');
      });

      it('discovers models as supportsDiscovery declares', async () => {
        const operations = new Set(h.kind.protocols.map((p) => p.operation));
        const before = h.requests().length;
        const result = await h.kind.discoverModels(h.connection);
        expect(result.manualEntryAllowed).toBe(true);
        if (!h.kind.supportsDiscovery) {
          expect(result).toMatchObject({ discoveryStatus: 'failed', models: [] });
          expect(result.warnings.length).toBeGreaterThan(0);
          expect(h.requests().length).toBe(before);
          return;
        }
        expect(result.discoveryStatus, result.warnings.join(' ')).toBe('succeeded');
        expect(result.models.map((m) => m.remoteModelId)).toContain(h.chatModelId);
        for (const model of result.models) {
          expect(model.remoteModelId.trim()).not.toBe('');
          for (const op of model.operationKinds ?? [])
            expect(operations.has(op), `${model.remoteModelId}: ${op}`).toBe(true);
        }
      });

      it('reports discovery with a refused key as failed, manual entry allowed, without echoing the key', async () => {
        const result = await h.kind.discoverModels(h.connectionWithBadKey);
        expect(result).toMatchObject({ discoveryStatus: 'failed', manualEntryAllowed: true, models: [] });
        expect(result.warnings.length).toBeGreaterThan(0);
        expectNoSecret(result.warnings.join('\n'), 'the discovery warnings');
      });
    });

    describe('models', () => {
      it('creates a v1 model naming its kind and remote model id, counting more tokens for more text', () => {
        const model = h.kind.createModel(h.connection, chatSpec('auto'));
        expect(model).toMatchObject({
          specificationVersion: 'v1',
          providerKind: h.kind.kind,
          remoteModelId: h.chatModelId,
        });
        if (model.countTokens) {
          const short = model.countTokens('export const answer = 42;');
          const long = model.countTokens('export const answer = 42;\n'.repeat(50));
          expect(Number.isInteger(short.tokens) && short.tokens > 0).toBe(true);
          expect(long.tokens).toBeGreaterThan(short.tokens);
          expect(typeof long.exact).toBe('boolean');
        }
      });

      it('refuses a protocol mode it does not speak, naming protocolMode, before any request', async () => {
        const declared = new Set(modesOf(h.kind));
        const mode = BUILT_IN_PROTOCOL_MODES.find((m) => !declared.has(m)) ?? 'contractUndeclaredMode';
        const before = h.requests().length;
        const error = await failureOf(() => h.kind.createModel(h.connection, chatSpec(mode)).chat(chatRequest('mode')));
        expect(error.code).toBe('validation_failed');
        expect(error.details.details).toEqual(
          expect.arrayContaining([expect.objectContaining({ path: 'protocolMode' })]),
        );
        expect(h.requests().length).toBe(before);
      });

      it('chats through auto and each declared chat protocol with the scripted text and usage', async () => {
        const modes: ProtocolMode[] = ['auto', ...chatModes()];
        for (const [i, mode] of modes.entries()) {
          const marker = `contract-chat-${i}`;
          const scripted = { text: `Looks right (${mode}).`, inputTokens: 1200 + i, outputTokens: 34 + i };
          const before = h.requests().length;
          h.nextChatAnswer(scripted);
          const result = await h.kind.createModel(h.connection, chatSpec(mode)).chat(chatRequest(marker));
          expect(result.text, mode).toBe(scripted.text);
          expect(result.usage, mode).toMatchObject({
            inputTokens: scripted.inputTokens,
            outputTokens: scripted.outputTokens,
          });
          expectUsage(result.usage, mode);
          expect(result.finishReason, mode).toBe('stop');
          expect(result.toolCalls, mode).toEqual([]);
          if (mode === 'auto')
            expect(chatModes(), 'auto resolves to a declared chat protocol').toContain(result.protocolMode);
          else expect(result.protocolMode).toBe(mode);
          const sent = carrying(`${marker}-user`, before);
          expect(sent, `${mode}: one request carries the user message`).toHaveLength(1);
          expect(sent[0]?.body, `${mode}: the system text is sent`).toContain(`${marker}-system`);
        }
      });

      it('reports an input longer than the context window as contextLengthExceeded on every chat protocol, unretried', async () => {
        for (const [i, mode] of chatModes().entries()) {
          const marker = `contract-too-long-${i}`;
          const before = h.requests().length;
          h.nextChatFailsContextLength();
          const error = await failureOf(() =>
            h.kind.createModel(h.connection, chatSpec(mode)).chat(chatRequest(marker)),
          );
          expect(error.code, mode).toBe('provider_unavailable');
          expect(error.details.providerFailure, mode).toBe('contextLengthExceeded');
          expect(carrying(`${marker}-user`, before), `${mode}: sent once, not retried`).toHaveLength(1);
          expectNoSecret(error.message, 'the error message');
        }
      });

      it('fails a chat with a refused key as a credentials failure without echoing the key', async () => {
        const before = h.requests().length;
        const error = await failureOf(() =>
          h.kind.createModel(h.connectionWithBadKey, chatSpec('auto')).chat(chatRequest('contract-bad-key')),
        );
        expect(error.code).toBe('provider_unavailable');
        expect(error.details.providerFailure).toBe('credentials');
        expect(h.requests().length).toBeGreaterThan(before);
        expectNoSecret(error.message, 'the error message');
      });

      it('rejects a call whose signal is already aborted without sending a request', async () => {
        const aborted = AbortSignal.abort();
        const before = h.requests().length;
        const chat = h.kind.createModel(h.connection, chatSpec('auto'));
        await expect(chat.chat(chatRequest('contract-aborted', { signal: aborted }))).rejects.toBeDefined();
        if (h.embeddingModelId !== undefined) {
          const embedder = h.kind.createModel(h.connection, embeddingSpec('auto', 3));
          await expect(embedder.embed(['contract-aborted'], { signal: aborted })).rejects.toBeDefined();
        }
        expect(h.requests().length).toBe(before);
      });

      it('embeds texts into one scripted vector each, in order, when it declares embeddings (and refuses otherwise)', async () => {
        if (h.embeddingModelId === undefined) {
          const before = h.requests().length;
          const error = await failureOf(() => h.kind.createModel(h.connection, chatSpec('auto')).embed(['text']));
          expect(error.code).toBe('validation_failed');
          expect(h.requests().length).toBe(before);
          return;
        }
        const modes: ProtocolMode[] = ['auto', ...embeddingModes()];
        for (const [i, mode] of modes.entries()) {
          const vectors = [
            [0.1 + i, 0.2, 0.3],
            [0.4, 0.5 + i, 0.6],
          ];
          h.nextEmbeddings?.(vectors);
          const model: AiModelV1 = h.kind.createModel(h.connection, embeddingSpec(mode, 3));
          const result = await model.embed([`first text ${i}`, `second text ${i}`]);
          expect(result.vectors, mode).toEqual(vectors);
          expectUsage(result.usage, mode);
        }
      });

      it('never puts a secret into a URL', async () => {
        const from = h.requests().length;
        h.nextChatAnswer({ text: 'ok', inputTokens: 1, outputTokens: 1 });
        await h.kind.createModel(h.connection, chatSpec('auto')).chat(chatRequest('contract-url'));
        await h.kind.probe(h.connection);
        await h.kind.probe(h.connectionWithBadKey);
        await h.kind.discoverModels(h.connectionWithBadKey);
        await h.kind
          .createModel(h.connectionWithBadKey, chatSpec('auto'))
          .chat(chatRequest('contract-url-bad'))
          .catch((e: unknown) => {
            if (!MarginError.isInstance(e)) throw e;
          });
        if (h.embeddingModelId !== undefined) {
          h.nextEmbeddings?.([[1, 2, 3]]);
          await h.kind.createModel(h.connection, embeddingSpec('auto', 3)).embed(['contract-url']);
        }
        const sent = h.requests().slice(from);
        expect(sent.length).toBeGreaterThan(0);
        for (const request of sent) {
          let decoded = request.path;
          try {
            decoded = decodeURIComponent(request.path);
          } catch {
            // keep the raw path
          }
          expectNoSecret(`${request.path}\n${decoded}`, `${request.method} ${request.path}`);
        }
      });
    });
  });
}
