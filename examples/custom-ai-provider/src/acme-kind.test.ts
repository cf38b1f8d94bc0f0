import { SYSTEM_TENANT_ID } from '@margin/core/spec';
import { createMarginClient, type MarginClient, type Schemas, ValidationError } from '@margin/sdk-client';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startTestHost, type TestHost } from '@margin/server-express/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAcmeRegistry } from './registry.js';
import { ACME_CHAT_MODEL, type AcmeFake, REVIEW_ANSWER, startAcmeFake } from './testing/acme-fake.js';

// Obviously fake, and distinctive so a leak into an answer is easy to spot.
const ACME_KEY = 'acme-test-key-not-real-4f1c9e';

describe('Acme Models registered by a plugin as a kind of its own, kindAcme', () => {
  let acme: AcmeFake;
  let host: TestHost;
  let margin: MarginClient;
  let clientId: string;
  const connection = (apiKey = ACME_KEY): Schemas['AiProbeInput'] => ({
    providerKind: 'kindAcme',
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
    clientId = (await margin.tenancy.createClient({ displayName: 'Acme plugin', tenantId: SYSTEM_TENANT_ID })).id;
  });
  afterAll(async () => {
    await host.close();
    await acme.close();
  });

  it('offers the seven built-in kinds and then kindAcme with the modes it declares', async () => {
    const { providers } = await margin.ai.listPermittedAiProviders(clientId);
    expect(providers.map((p) => p.providerKind)).toEqual([
      'kindCloudA',
      'kindDirect',
      'kindProxy',
      'kindCompatible',
      'kindAssistant',
      'kindCloudB',
      'kindCloudC',
      'kindAcme',
    ]);
    // `auto` plus each protocol the kind declares: core derives the list, the plugin names no mode twice.
    expect(providers.find((p) => p.providerKind === 'kindAcme')?.protocolModes).toEqual(['auto', 'acmeGenerate']);
  });

  it('leaves kindCompatible to the built-in OpenAI-compatible adapter', async () => {
    const { providers } = await margin.ai.listPermittedAiProviders(clientId);
    expect(providers.find((p) => p.providerKind === 'kindCompatible')?.protocolModes).toEqual([
      'auto',
      'chatCompletions',
      'embeddings',
    ]);
    // The built-in adapter speaks OpenAI's wire (a bearer token), not Acme's, so the fake refuses it.
    acme.requests.length = 0;
    const probe = await margin.ai.probeAiConnection(clientId, { ...connection(), providerKind: 'kindCompatible' });
    expect(probe).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    expect(acme.requests[0]?.headers.authorization).toBe(`Bearer ${ACME_KEY}`);
    expect(acme.requests[0]?.headers['x-acme-key']).toBeUndefined();
  });

  it('lists the known models kindAcme declares, with their prices, in the model catalog', async () => {
    const { items } = await margin.ai.listCatalogModels(SYSTEM_TENANT_ID, { providerKind: 'kindAcme' });
    expect(items).toEqual([
      expect.objectContaining({
        providerKind: 'kindAcme',
        remoteModelId: ACME_CHAT_MODEL,
        displayName: 'Acme Coder 1',
        operationKinds: ['chat'],
        maxContextTokens: 64_000,
        inputCostPer1MUsd: 1.2,
        outputCostPer1MUsd: 4.8,
        isBuiltIn: true,
      }),
      expect.objectContaining({ remoteModelId: 'acme-mini', inputCostPer1MUsd: 0.15, outputCostPer1MUsd: 0.6 }),
    ]);
    const providers = (await margin.ai.listCatalogProviders(SYSTEM_TENANT_ID)).items;
    expect(providers.find((p) => p.providerKind === 'kindAcme')).toEqual({
      providerKind: 'kindAcme',
      protocolModes: ['auto', 'acmeGenerate'],
      supportsDiscovery: true,
      catalogModelCount: 2,
    });
  });

  it('probes and discovers through the API against Acme’s model list, with catalog prices filled in', async () => {
    acme.requests.length = 0;
    expect(await margin.ai.probeAiConnection(clientId, connection())).toMatchObject({
      status: 'succeeded',
      summary: 'Acme Models listed 2 models.',
    });
    expect(acme.requests[0]?.headers['x-acme-key']).toBe(ACME_KEY);

    const discovered = await margin.ai.discoverAiModels(clientId, connection());
    expect(discovered).toMatchObject({ discoveryStatus: 'succeeded', warnings: [] });
    expect(discovered.models).toEqual([
      expect.objectContaining({
        remoteModelId: ACME_CHAT_MODEL,
        displayName: 'Acme Coder 1',
        operationKinds: ['chat'],
        // Inferred from the kind's declared chat protocol.
        supportedProtocolModes: ['auto', 'acmeGenerate'],
        maxContextTokens: 64_000,
        inputCostPer1MUsd: 1.2,
        outputCostPer1MUsd: 4.8,
        source: 'discovered',
      }),
      // Acme lists no display name for it; the catalog's is used.
      expect.objectContaining({ remoteModelId: 'acme-mini', displayName: 'Acme Mini', maxContextTokens: 8_000 }),
    ]);
    expect(seen()).toEqual(['GET /v1/models', 'GET /v1/models']);
  });

  it('reports a rejected key as a failed probe in the credentials category, without the key', async () => {
    const probe = await margin.ai.probeAiConnection(clientId, connection('acme-wrong-key-0000'));
    expect(probe).toMatchObject({ status: 'failed', failureCategory: 'credentials' });
    expect(probe.summary).toBe('Acme Models answered 401: Unknown API key.');
    expect(JSON.stringify(probe)).not.toContain('acme-wrong-key-0000');
  });

  it('creates a profile from a discovered model, verifies it with a live /generate call and activates it', async () => {
    const [model] = (await margin.ai.discoverAiModels(clientId, connection())).models;
    const created = await margin.ai.createAiConnection(clientId, {
      ...connection(),
      displayName: 'Acme',
      configuredModels: [model as Schemas['ConfiguredModelInput']],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: ACME_CHAT_MODEL }],
    });
    expect(created).toMatchObject({ isActive: false, auth: { mode: 'apiKey', hasApiKey: true } });

    acme.requests.length = 0;
    const verified = await margin.ai.verifyAiConnection(clientId, created.id);
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
    expect((await margin.ai.activateAiConnection(clientId, created.id)).isActive).toBe(true);
  });

  it('answers a chat through the AiModelV1 port with the vendor’s output', async () => {
    // What the review loop does: ask core for the model behind a purpose, then call it.
    const resolved = await host.core.ai.resolvePurpose(clientId, 'reviewDefault');
    // `auto` narrows to the one chat protocol the model declares.
    expect(resolved).toMatchObject({ via: 'binding', protocolMode: 'acmeGenerate' });
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
      protocolMode: 'acmeGenerate',
    });
    expect(acme.requests.at(-1)?.json).toEqual({
      model: ACME_CHAT_MODEL,
      prompt:
        'System: You review pull requests.\n\nUser: Review: while (items.length) { process(items[0]); }\n\nAssistant:',
      temperature: 0,
    });
  });

  it('refuses an embedding model at save time, since kindAcme declares no embedding protocol', async () => {
    const refused = margin.ai.createAiConnection(clientId, {
      ...connection(),
      displayName: 'Acme embeddings',
      configuredModels: [
        { remoteModelId: 'acme-embed', tokenizerName: 'acme', maxInputTokens: 2048, embeddingDimensions: 512 },
      ],
      purposeBindings: [{ purpose: 'embeddingDefault', remoteModelId: 'acme-embed' }],
    });
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      body: {
        code: 'validation_failed',
        details: expect.arrayContaining([
          {
            path: 'configuredModels[0].operationKinds',
            message: 'kindAcme has no embeddings API, so a model of this connection cannot be an embedding model.',
          },
        ]),
      },
    });
  });

  it('saves a purpose binding in acmeGenerate and refuses a mode kindAcme does not speak', async () => {
    const profile = (protocolMode: string): Schemas['CreateAiConnectionInput'] => ({
      ...connection(),
      displayName: `Acme ${protocolMode}`,
      configuredModels: [{ remoteModelId: 'acme-mini', supportedProtocolModes: ['auto', 'acmeGenerate'] }],
      purposeBindings: [{ purpose: 'reviewTriage', remoteModelId: 'acme-mini', protocolMode }],
    });
    const saved = await margin.ai.createAiConnection(clientId, profile('acmeGenerate'));
    expect(saved.purposeBindings).toEqual([
      expect.objectContaining({ purpose: 'reviewTriage', protocolMode: 'acmeGenerate' }),
    ]);

    const refused = margin.ai.createAiConnection(clientId, profile('chatCompletions'));
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toMatchObject({
      status: 400,
      body: {
        details: [
          {
            path: 'purposeBindings[0].protocolMode',
            message: 'Protocol mode chatCompletions is not available for kindAcme; use one of auto, acmeGenerate.',
          },
        ],
      },
    });
  });

  it('checks the workspace setting kindAcme declares before calling Acme: 400 naming defaultQueryParams.workspace', async () => {
    acme.requests.length = 0;
    const bad = { ...connection(), defaultQueryParams: { workspace: 'Team Reviews!' } };
    await expectRefusedNaming(
      [
        () => margin.ai.probeAiConnection(clientId, bad),
        () => margin.ai.discoverAiModels(clientId, bad),
        () => margin.ai.createAiConnection(clientId, profileOf(bad, 'Acme bad workspace')),
      ],
      { path: 'defaultQueryParams.workspace', message: 'must be an Acme workspace slug such as team-reviews' },
    );
    expect(acme.requests).toEqual([]);
  });

  it('sends the workspace setting as x-acme-workspace, and every other defaultQueryParams entry as a query parameter', async () => {
    acme.requests.length = 0;
    const defaultQueryParams = { workspace: 'team-reviews', 'api-version': '2025-01' };
    const probe = await margin.ai.probeAiConnection(clientId, { ...connection(), defaultQueryParams });
    expect(probe).toMatchObject({ status: 'succeeded' });
    const [request] = acme.requests;
    expect(request?.headers['x-acme-workspace']).toBe('team-reviews');
    expect(Object.fromEntries(request?.query ?? [])).toEqual({ 'api-version': '2025-01' });
  });

  it('answers 400 naming providerKind for a kind no plugin registers', async () => {
    const unknown = { ...connection(), providerKind: 'kindNope' };
    await expectRefusedNaming(
      [
        () => margin.ai.probeAiConnection(clientId, unknown),
        () => margin.ai.createAiConnection(clientId, profileOf(unknown, 'Nope')),
      ],
      {
        path: 'providerKind',
        message:
          'AI provider kind kindNope is not available in this installation; use one of kindCloudA, kindDirect, kindProxy, kindCompatible, kindAssistant, kindCloudB, kindCloudC, kindAcme.',
      },
    );
  });
});

/** A profile of the connection with Acme's chat model bound to reviewDefault. */
function profileOf<T extends object>(connection: T, displayName: string) {
  return {
    ...connection,
    displayName,
    configuredModels: [{ remoteModelId: ACME_CHAT_MODEL }],
    purposeBindings: [{ purpose: 'reviewDefault' as const, remoteModelId: ACME_CHAT_MODEL }],
  };
}

/** Every call is refused with a 400 whose only detail is this one. */
async function expectRefusedNaming(
  sends: ReadonlyArray<() => Promise<unknown>>,
  detail: { path: string; message: string },
): Promise<void> {
  for (const send of sends) {
    const call = send();
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    await expect(call).rejects.toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: [detail] },
    });
  }
}
