import { SYSTEM_TENANT_ID } from '@margin/core';
import { createMarginClient, type MarginClient, type Schemas, ValidationError } from '@margin/sdk-client';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAcmeRegistry } from './registry.js';
import { ACME_CHAT_MODEL, type AcmeFake, REVIEW_ANSWER, startAcmeFake } from './testing/acme-fake.js';

// Obviously fake, and distinctive so a leak into an answer is easy to spot.
const ACME_KEY = 'acme-test-key-not-real-4f1c9e';

describe('Acme Models plugged into a real host as kindCompatible', () => {
  let acme: AcmeFake;
  let host: TestHost;
  let margin: MarginClient;
  let clientId: string;
  const connection = (apiKey = ACME_KEY): Schemas['AiProbeInput'] => ({
    providerKind: 'kindCompatible',
    baseUrl: acme.apiRoot,
    auth: { mode: 'apiKey', apiKey },
  });
  const seen = () => acme.requests.map((r) => `${r.method} ${r.path}`);

  beforeAll(async () => {
    acme = await startAcmeFake({ apiKey: ACME_KEY });
    host = await startTestHost({
      providers: createAcmeRegistry({ allowPrivateEgress: true }),
      // The fake listens on loopback over plain http; core's save-time check must allow it too.
      env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' },
    });
    margin = createMarginClient({
      baseUrl: `${host.url}/api`,
      credentials: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    clientId = (await margin.clients.create({ displayName: 'Acme plugin', tenantId: SYSTEM_TENANT_ID })).id;
  });
  afterAll(async () => {
    await host.close();
    await acme.close();
  });

  it('replaces the built-in adapter: the host offers kindCompatible with the modes Acme speaks', async () => {
    const { providers } = await margin.ai.permittedProviders(clientId);
    expect(providers.map((p) => p.providerKind)).toEqual([
      'kindCloudA',
      'kindDirect',
      'kindProxy',
      'kindCompatible',
      'kindAssistant',
      'kindCloudB',
      'kindCloudC',
    ]);
    // The built-in OpenAI-compatible adapter would also offer `embeddings`.
    expect(providers.find((p) => p.providerKind === 'kindCompatible')?.protocolModes).toEqual([
      'auto',
      'chatCompletions',
    ]);
  });

  it('probes and discovers through the API against Acme’s model list', async () => {
    acme.requests.length = 0;
    expect(await margin.ai.probe(clientId, connection())).toMatchObject({
      status: 'succeeded',
      summary: 'Acme Models listed 2 models.',
    });
    expect(acme.requests[0]?.headers['x-acme-key']).toBe(ACME_KEY);

    const discovered = await margin.ai.discoverModels(clientId, connection());
    expect(discovered).toMatchObject({ discoveryStatus: 'succeeded', warnings: [] });
    expect(discovered.models).toEqual([
      expect.objectContaining({
        remoteModelId: ACME_CHAT_MODEL,
        displayName: 'Acme Coder 1',
        operationKinds: ['chat'],
        supportedProtocolModes: ['auto', 'chatCompletions'],
        maxContextTokens: 64_000,
        source: 'discovered',
      }),
      expect.objectContaining({ remoteModelId: 'acme-mini', maxContextTokens: 8_000 }),
    ]);
    expect(seen()).toEqual(['GET /v1/models', 'GET /v1/models']);
  });

  it('reports a rejected key as a failed probe in the credentials category, without the key', async () => {
    const probe = await margin.ai.probe(clientId, connection('acme-wrong-key-0000'));
    expect(probe).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    expect(probe.summary).toBe('Acme Models answered 401: Unknown API key.');
    expect(JSON.stringify(probe)).not.toContain('acme-wrong-key-0000');
  });

  it('creates a profile from a discovered model, verifies it with a live /generate call and activates it', async () => {
    const [model] = (await margin.ai.discoverModels(clientId, connection())).models;
    const created = await margin.ai.connections.create(clientId, {
      ...connection(),
      displayName: 'Acme',
      configuredModels: [model as Schemas['ConfiguredModelInput']],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: ACME_CHAT_MODEL }],
    });
    expect(created).toMatchObject({ isActive: false, auth: { mode: 'apiKey', hasApiKey: true } });

    acme.requests.length = 0;
    const verified = await margin.ai.connections.verify(clientId, created.id);
    expect(verified).toMatchObject({
      status: 'verified',
      summary: 'Acme Models listed 2 models. The configured model answered.',
    });
    expect(seen()).toEqual(['GET /v1/models', 'POST /v1/generate']);
    expect(acme.requests[1]?.json).toEqual({
      model: ACME_CHAT_MODEL,
      prompt: 'User: Reply with the single word OK.\n\nAssistant:',
      max_tokens: 16,
    });
    expect((await margin.ai.connections.activate(clientId, created.id)).isActive).toBe(true);
  });

  it('answers a chat through the AiModelV1 port with the vendor’s output', async () => {
    // What the review loop does: ask core for the model behind a purpose, then call it.
    const resolved = await host.core.ai.resolvePurpose(clientId, 'reviewDefault');
    // `auto` narrows to the one chat protocol the model declares.
    expect(resolved).toMatchObject({ via: 'binding', protocolMode: 'chatCompletions' });
    const answer = await resolved.model.chat({
      system: 'You review pull requests.',
      messages: [{ role: 'user', content: 'Review: while (items.length) { process(items[0]); }' }],
      temperature: 0,
    });
    expect(answer).toEqual({
      text: REVIEW_ANSWER,
      toolCalls: [],
      finishReason: 'stop',
      usage: { inputTokens: 37, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 11, reasoningTokens: 0 },
      protocolMode: 'chatCompletions',
    });
    expect(acme.requests.at(-1)?.json).toEqual({
      model: ACME_CHAT_MODEL,
      prompt:
        'System: You review pull requests.\n\nUser: Review: while (items.length) { process(items[0]); }\n\nAssistant:',
      temperature: 0,
    });
  });

  it('refuses an embedding model at save time, since Acme has no embeddings', async () => {
    const refused = margin.ai.connections.create(clientId, {
      ...connection(),
      displayName: 'Acme embeddings',
      configuredModels: [
        { remoteModelId: 'acme-embed', tokenizerName: 'acme', maxInputTokens: 2048, embeddingDimensions: 512 },
      ],
      purposeBindings: [{ purpose: 'embeddingDefault', remoteModelId: 'acme-embed' }],
    });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({
      body: {
        details: expect.arrayContaining([expect.objectContaining({ path: 'configuredModels[0].operationKinds' })]),
      },
    });
  });
});
