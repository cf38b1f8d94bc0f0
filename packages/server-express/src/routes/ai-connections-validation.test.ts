import { BUILT_IN_AI_PROVIDER_KINDS, SYSTEM_TENANT_ID } from '@margin/core/spec';
import { type BedrockFake, startBedrockFake } from '@margin/providers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiProfile } from '../testing/ai-test-kit.js';
import { startTestHost, type TestApi, type TestHost } from '../testing/index.js';

type Body = ReturnType<typeof openAiProfile> & Record<string, any>;

/** A fresh valid body, changed by `change`. */
const body = (change: (b: Body) => void = () => undefined) => {
  const b = structuredClone(openAiProfile()) as Body;
  change(b);
  return b;
};
const chat = (b: Body) => b.configuredModels[0] as Record<string, any>;
const embed = (b: Body) => b.configuredModels[1] as Record<string, any>;
const binding = (b: Body, i: number) => b.purposeBindings[i] as Record<string, any>;

/** Each rule of the spec and decisions.md, as the smallest change that breaks it, and the field it names. */
const RULES: Array<[rule: string, change: (b: Body) => void, path: string]> = [
  ['configuredModels is required', (b) => delete (b as any).configuredModels, 'configuredModels'],
  ['configuredModels must not be empty', (b) => (b.configuredModels = []), 'configuredModels'],
  [
    'configuredModels must be an array',
    (b) => ((b as any).configuredModels = { remoteModelId: 'x' }),
    'configuredModels',
  ],
  ['purposeBindings is required', (b) => delete (b as any).purposeBindings, 'purposeBindings'],
  ['purposeBindings must not be empty', (b) => (b.purposeBindings = []), 'purposeBindings'],
  ['displayName is required', (b) => delete (b as any).displayName, 'displayName'],
  ['displayName must not be blank', (b) => (b.displayName = '   '), 'displayName'],
  ['displayName is at most 200 characters', (b) => (b.displayName = 'x'.repeat(201)), 'displayName'],
  ['displayName must be a string', (b) => ((b as any).displayName = 42), 'displayName'],
  ['providerKind is one of the seven', (b) => (b.providerKind = 'openAi'), 'providerKind'],
  ['providerKind is required', (b) => delete (b as any).providerKind, 'providerKind'],
  ['baseUrl must be absolute', (b) => (b.baseUrl = 'api.openai.com/v1'), 'baseUrl'],
  ['baseUrl must be http(s)', (b) => (b.baseUrl = 'ftp://api.openai.com/v1'), 'baseUrl'],
  ['baseUrl is at most 1000 characters', (b) => (b.baseUrl = `https://a.example.com/${'x'.repeat(1000)}`), 'baseUrl'],
  [
    'baseUrl is required for kinds without a public endpoint',
    (b) => {
      b.providerKind = 'kindCompatible';
      b.baseUrl = '';
    },
    'baseUrl',
  ],
  ['baseUrl must not carry credentials', (b) => (b.baseUrl = 'https://user:pw@api.openai.com/v1'), 'baseUrl'],
  ['egress: plain http', (b) => (b.baseUrl = 'http://api.openai.com/v1'), 'baseUrl'],
  ['egress: loopback', (b) => (b.baseUrl = 'https://127.0.0.1:8443/v1'), 'baseUrl'],
  ['egress: IPv6 loopback', (b) => (b.baseUrl = 'https://[::1]/v1'), 'baseUrl'],
  ['egress: localhost', (b) => (b.baseUrl = 'https://localhost/v1'), 'baseUrl'],
  ['egress: private', (b) => (b.baseUrl = 'https://10.0.4.12/v1'), 'baseUrl'],
  ['egress: private (IPv4-mapped)', (b) => (b.baseUrl = 'https://[::ffff:192.168.1.5]/v1'), 'baseUrl'],
  ['egress: link-local', (b) => (b.baseUrl = 'https://169.254.10.1/v1'), 'baseUrl'],
  ['egress: metadata address', (b) => (b.baseUrl = 'https://169.254.169.254/latest'), 'baseUrl'],
  ['egress: metadata host name', (b) => (b.baseUrl = 'https://metadata.google.internal/v1'), 'baseUrl'],
  ['auth is required', (b) => delete (b as any).auth, 'auth'],
  ['auth.mode is apiKey or azureIdentity', (b) => (b.auth.mode = 'oauth'), 'auth.mode'],
  ['azureIdentity only for kindCloudA', (b) => (b.auth = { mode: 'azureIdentity' } as any), 'auth.mode'],
  ['apiKey is required for mode apiKey', (b) => delete (b.auth as any).apiKey, 'auth.apiKey'],
  ['apiKey must not be empty (but for kindCompatible)', (b) => (b.auth.apiKey = '  '), 'auth.apiKey'],
  ['apiKey must be a string', (b) => ((b.auth as any).apiKey = 12345), 'auth.apiKey'],
  ['discoveryMode is providerCatalog or manualOnly', (b) => ((b as any).discoveryMode = 'sometimes'), 'discoveryMode'],
  [
    'discoveryMode providerCatalog needs a kind that can list models',
    (b) => {
      b.providerKind = 'kindCloudA';
      b.baseUrl = 'https://acme.openai.azure.com/openai/v1';
      (b as any).discoveryMode = 'providerCatalog';
    },
    'discoveryMode',
  ],
  [
    'header names are HTTP tokens',
    (b) => ((b as any).defaultHeaders = { 'bad header': 'x' }),
    'defaultHeaders.bad header',
  ],
  ['header values have no line breaks', (b) => ((b as any).defaultHeaders = { 'x-a': 'a\r\nb' }), 'defaultHeaders.x-a'],
  [
    'query parameter values are strings',
    (b) => ((b as any).defaultQueryParams = { region: 1 }),
    'defaultQueryParams.region',
  ],
  [
    'a setting the kind declares passes its schema (kindCloudB: region is an AWS region)',
    (b) => {
      b.providerKind = 'kindCloudB';
      b.baseUrl = '';
      (b as any).defaultQueryParams = { region: 'eu-central-1.attacker.example' };
    },
    'defaultQueryParams.region',
  ],
  ['remoteModelId is required', (b) => delete chat(b).remoteModelId, 'configuredModels[0].remoteModelId'],
  ['remoteModelId must not be blank', (b) => (chat(b).remoteModelId = ' '), 'configuredModels[0].remoteModelId'],
  [
    'remoteModelId is unique ignoring case',
    (b) => b.configuredModels.push({ remoteModelId: 'GPT-4.1' } as any),
    'configuredModels[2].remoteModelId',
  ],
  ['embedding model needs tokenizerName', (b) => delete embed(b).tokenizerName, 'configuredModels[1].tokenizerName'],
  ['embedding model needs maxInputTokens', (b) => delete embed(b).maxInputTokens, 'configuredModels[1].maxInputTokens'],
  ['maxInputTokens is above 0', (b) => (embed(b).maxInputTokens = 0), 'configuredModels[1].maxInputTokens'],
  ['maxInputTokens is an integer', (b) => (embed(b).maxInputTokens = 1.5), 'configuredModels[1].maxInputTokens'],
  [
    'embedding model needs embeddingDimensions',
    (b) => delete embed(b).embeddingDimensions,
    'configuredModels[1].embeddingDimensions',
  ],
  [
    'embeddingDimensions is at least 64',
    (b) => (embed(b).embeddingDimensions = 63),
    'configuredModels[1].embeddingDimensions',
  ],
  [
    'embeddingDimensions is at most 4096',
    (b) => (embed(b).embeddingDimensions = 4097),
    'configuredModels[1].embeddingDimensions',
  ],
  [
    'a model inferred as embedding (tokenizerName given) needs the embedding fields',
    (b) => b.configuredModels.push({ remoteModelId: 'nomic-embed-text', tokenizerName: 'bert' } as any),
    'configuredModels[2].maxInputTokens',
  ],
  [
    'a model inferred as embedding (id contains "embedding") needs the embedding fields',
    (b) => b.configuredModels.push({ remoteModelId: 'my-embedding-model' } as any),
    'configuredModels[2].tokenizerName',
  ],
  [
    'operationKinds values are chat and embedding',
    (b) => (chat(b).operationKinds = ['completion']),
    'configuredModels[0].operationKinds[0]',
  ],
  [
    'the embeddings protocol needs the embedding capability',
    (b) => (chat(b).supportedProtocolModes = ['auto', 'embeddings']),
    'configuredModels[0].supportedProtocolModes[1]',
  ],
  [
    'a chat protocol needs the chat capability',
    (b) => (embed(b).supportedProtocolModes = ['embeddings', 'chatCompletions']),
    'configuredModels[1].supportedProtocolModes[1]',
  ],
  [
    'protocol modes are from the list',
    (b) => (chat(b).supportedProtocolModes = ['grpc']),
    'configuredModels[0].supportedProtocolModes[0]',
  ],
  [
    'protocol modes must be ones the kind permits (kindCompatible has no responses)',
    (b) => {
      b.providerKind = 'kindCompatible';
      chat(b).supportedProtocolModes = ['responses'];
      binding(b, 0).protocolMode = 'responses';
    },
    'configuredModels[0].supportedProtocolModes[0]',
  ],
  [
    'protocol modes must be ones the kind permits (kindAssistant speaks messagesApi)',
    (b) => {
      b.providerKind = 'kindAssistant';
      b.baseUrl = '';
      b.configuredModels = [
        { remoteModelId: 'claude-sonnet-4-20250514', supportedProtocolModes: ['chatCompletions'] },
      ] as any;
      b.purposeBindings = [{ purpose: 'reviewDefault', remoteModelId: 'claude-sonnet-4-20250514' }] as any;
    },
    'configuredModels[0].supportedProtocolModes[0]',
  ],
  [
    'a kind without embeddings cannot have an embedding model',
    (b) => {
      b.providerKind = 'kindAssistant';
      b.baseUrl = '';
      b.purposeBindings = [{ purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' }] as any;
    },
    'configuredModels[1].operationKinds',
  ],
  ['price is not negative', (b) => (chat(b).inputCostPer1MUsd = -1), 'configuredModels[0].inputCostPer1MUsd'],
  ['maxContextTokens is above 0', (b) => (chat(b).maxContextTokens = 0), 'configuredModels[0].maxContextTokens'],
  ['source is discovered, manual or knownCatalog', (b) => (chat(b).source = 'guess'), 'configuredModels[0].source'],
  ['lastSeenAt is a timestamp', (b) => (chat(b).lastSeenAt = 'yesterday'), 'configuredModels[0].lastSeenAt'],
  ['purpose is from the list', (b) => (binding(b, 0).purpose = 'reviewEverything'), 'purposeBindings[0].purpose'],
  [
    'a purpose appears once per profile',
    (b) => b.purposeBindings.push({ purpose: 'reviewDefault', remoteModelId: 'gpt-4.1' } as any),
    'purposeBindings[2].purpose',
  ],
  ['a binding names its model', (b) => delete binding(b, 0).remoteModelId, 'purposeBindings[0].remoteModelId'],
  [
    'a binding names a model of the same request (remoteModelId)',
    (b) => (binding(b, 0).remoteModelId = 'gpt-5'),
    'purposeBindings[0].remoteModelId',
  ],
  [
    'a binding names a model of the same request (configuredModelId)',
    (b) => {
      delete binding(b, 0).remoteModelId;
      binding(b, 0).configuredModelId = '00000000-0000-4000-8000-000000000001';
    },
    'purposeBindings[0].configuredModelId',
  ],
  [
    'embeddingDefault needs an embedding-capable model',
    (b) => (binding(b, 1).remoteModelId = 'gpt-4.1'),
    'purposeBindings[1].remoteModelId',
  ],
  [
    'embeddingDefault needs protocolMode auto or embeddings',
    (b) => (binding(b, 1).protocolMode = 'chatCompletions'),
    'purposeBindings[1].protocolMode',
  ],
  [
    'other purposes need a chat-capable model',
    (b) => (binding(b, 0).remoteModelId = 'text-embedding-3-small'),
    'purposeBindings[0].remoteModelId',
  ],
  [
    'other purposes need a chat protocol mode',
    (b) => (binding(b, 0).protocolMode = 'embeddings'),
    'purposeBindings[0].protocolMode',
  ],
  [
    'a binding mode must be one the kind permits',
    (b) => (binding(b, 0).protocolMode = 'messagesApi'),
    'purposeBindings[0].protocolMode',
  ],
  [
    'a binding mode must be one the model declares',
    (b) => {
      chat(b).supportedProtocolModes = ['auto', 'chatCompletions'];
      binding(b, 0).protocolMode = 'responses';
    },
    'purposeBindings[0].protocolMode',
  ],
  ['isEnabled is a boolean', (b) => (binding(b, 0).isEnabled = 'yes'), 'purposeBindings[0].isEnabled'],
];

describe('AI connection profiles: validation', () => {
  let host: TestHost;
  let admin: TestApi;
  let clientId: string;
  const path = () => `/clients/${clientId}/ai-connections`;

  beforeAll(async () => {
    host = await startTestHost();
    admin = await host.admin();
    clientId = (await admin.post('/clients', { displayName: 'Validation', tenantId: SYSTEM_TENANT_ID })).body.id;
  });
  afterAll(async () => {
    await host.close();
  });

  it('accepts the valid base body (the table only breaks one rule at a time)', async () => {
    const res = await admin.post(
      path(),
      body((b) => (b.displayName = 'Baseline')),
    );
    expect(res.status).toBe(201);
  });

  it.each(RULES)('refuses with 400: %s', async (_rule, change, expectedPath) => {
    const res = await admin.post(path(), body(change));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain(expectedPath);
  });

  it('names the reason and the setting when the egress guard refuses', async () => {
    const http = await admin.post(
      path(),
      body((b) => (b.baseUrl = 'http://api.openai.com/v1')),
    );
    expect(http.body.error).toContain('must use https');
    expect(http.body.error).toContain('MARGIN_ALLOW_PRIVATE_EGRESS=true');
    const loopback = await admin.post(
      path(),
      body((b) => (b.baseUrl = 'https://127.0.0.1/v1')),
    );
    expect(loopback.body.error).toContain('loopback address (127.0.0.1)');
    const privateNet = await admin.post(
      path(),
      body((b) => (b.baseUrl = 'https://192.168.1.20/v1')),
    );
    expect(privateNet.body.error).toContain('private address');
    const linkLocal = await admin.post(
      path(),
      body((b) => (b.baseUrl = 'https://[fe80::1]/v1')),
    );
    expect(linkLocal.body.error).toContain('link-local address');
    const metadata = await admin.post(
      path(),
      body((b) => (b.baseUrl = 'https://169.254.169.254/')),
    );
    expect(metadata.body.error).toContain('cloud metadata endpoint');
  });

  it('answers invalid JSON with 400 and never a 500', async () => {
    const res = await admin.post(path(), '{"displayName": "x",');
    expect(res.status).toBe(400);
  });

  it('ignores unknown fields', async () => {
    const res = await admin.post(
      path(),
      body((b) => {
        b.displayName = 'Unknown fields';
        b.colour = 'blue';
        chat(b).flavour = 'vanilla';
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('colour');
    expect(res.body.configuredModels[0]).not.toHaveProperty('flavour');
  });

  it('answers the profile with ids, defaults and inferred fields, inactive and never verified', async () => {
    const res = await admin.post(path(), {
      displayName: 'Inferred',
      providerKind: 'kindDirect',
      baseUrl: 'https://api.openai.com/v1',
      auth: { mode: 'apiKey', apiKey: 'sk-inferred-000000000000' },
      configuredModels: [
        { remoteModelId: 'gpt-4.1' },
        {
          remoteModelId: 'text-embedding-3-large',
          tokenizerName: 'cl100k_base',
          maxInputTokens: 8191,
          embeddingDimensions: 1024,
        },
        { remoteModelId: 'nomic-embed-text', tokenizerName: 'bert', maxInputTokens: 512, embeddingDimensions: 768 },
        {
          remoteModelId: 'both',
          operationKinds: ['chat', 'embedding'],
          tokenizerName: 't',
          maxInputTokens: 1,
          embeddingDimensions: 64,
        },
      ],
      purposeBindings: [
        { purpose: 'reviewDefault', remoteModelId: 'GPT-4.1' },
        { purpose: 'embeddingDefault', remoteModelId: 'text-embedding-3-large' },
      ],
    });
    expect(res.status).toBe(201);
    const [gpt, large, nomic, both] = res.body.configuredModels;
    expect(res.body).toEqual({
      id: expect.any(String),
      clientId,
      ownerTenantId: null,
      displayName: 'Inferred',
      providerKind: 'kindDirect',
      baseUrl: 'https://api.openai.com/v1',
      auth: { mode: 'apiKey', hasApiKey: true },
      discoveryMode: 'providerCatalog',
      defaultHeaders: {},
      defaultQueryParams: {},
      configuredModels: expect.any(Array),
      purposeBindings: [
        {
          purpose: 'reviewDefault',
          configuredModelId: gpt.id,
          remoteModelId: 'gpt-4.1',
          protocolMode: 'auto',
          isEnabled: true,
        },
        {
          purpose: 'embeddingDefault',
          configuredModelId: large.id,
          remoteModelId: 'text-embedding-3-large',
          protocolMode: 'auto',
          isEnabled: true,
        },
      ],
      isActive: false,
      verification: { status: 'neverVerified', summary: 'Not verified yet.', checkedAt: null, warnings: [] },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(gpt).toEqual({
      id: expect.any(String),
      remoteModelId: 'gpt-4.1',
      displayName: 'gpt-4.1',
      operationKinds: ['chat'],
      supportedProtocolModes: ['auto', 'responses', 'chatCompletions'],
      tokenizerName: null,
      maxInputTokens: null,
      embeddingDimensions: null,
      supportsStructuredOutput: false,
      supportsToolUse: false,
      maxContextTokens: null,
      inputCostPer1MUsd: null,
      outputCostPer1MUsd: null,
      cachedInputCostPer1MUsd: null,
      source: 'manual',
      lastSeenAt: null,
    });
    expect([large.operationKinds, large.supportedProtocolModes]).toEqual([['embedding'], ['auto', 'embeddings']]);
    expect([nomic.operationKinds, nomic.supportedProtocolModes]).toEqual([['embedding'], ['auto', 'embeddings']]);
    // Both capabilities: the spec's "else" branch.
    expect(both.supportedProtocolModes).toEqual(['auto', 'responses', 'chatCompletions']);
    expect(new Set(res.body.configuredModels.map((m: { id: string }) => m.id)).size).toBe(4);
  });

  it.each([
    ['kindCompatible', 'https://llm.example.com/v1', ['auto', 'chatCompletions']],
    ['kindAssistant', '', ['auto', 'messagesApi']],
    ['kindCloudB', '', ['auto', 'converseApi']],
    ['kindCloudC', '', ['auto', 'generateContentApi']],
    ['kindProxy', 'https://litellm.example.com', ['auto', 'responses', 'chatCompletions']],
  ])('infers the chat protocols a %s model speaks', async (providerKind, baseUrl, modes) => {
    const res = await admin.post(path(), {
      displayName: `Inference ${providerKind}`,
      providerKind,
      baseUrl,
      auth: { mode: 'apiKey', apiKey: 'key-for-inference-test' },
      defaultQueryParams: providerKind === 'kindCloudB' ? { region: 'eu-central-1' } : {},
      configuredModels: [{ remoteModelId: 'some-chat-model' }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'some-chat-model' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.configuredModels[0].supportedProtocolModes).toEqual(modes);
    expect(res.body.baseUrl).toBe(baseUrl);
  });

  it('accepts azureIdentity for kindCloudA without storing a key, and an empty key for kindCompatible', async () => {
    const azure = await admin.post(path(), {
      displayName: 'Azure',
      providerKind: 'kindCloudA',
      baseUrl: 'https://acme.openai.azure.com/openai/v1',
      auth: { mode: 'azureIdentity', apiKey: 'ignored-key-value' },
      configuredModels: [{ remoteModelId: 'reviews-gpt41' }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'reviews-gpt41' }],
    });
    expect(azure.status).toBe(201);
    expect(azure.body.auth).toEqual({ mode: 'azureIdentity', hasApiKey: false });
    // The installation's identity token goes to Azure hosts only, never to a host a client names.
    const elsewhere = await admin.post(path(), {
      displayName: 'Not Azure',
      providerKind: 'kindCloudA',
      baseUrl: 'https://models.attacker.example/openai/v1',
      auth: { mode: 'azureIdentity' },
      configuredModels: [{ remoteModelId: 'reviews-gpt41' }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'reviews-gpt41' }],
    });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.details).toEqual([
      expect.objectContaining({
        path: 'baseUrl',
        message: expect.stringContaining('with azureIdentity must be an Azure'),
      }),
    ]);
    const redirected = await admin.patch(`${path()}/${azure.body.id}`, {
      baseUrl: 'https://models.attacker.example/openai/v1',
    });
    expect(redirected.status).toBe(400);
    expect(redirected.body.details[0].path).toBe('baseUrl');
    expect(azure.body.discoveryMode).toBe('manualOnly');
    const keyless = await admin.post(path(), {
      displayName: 'Keyless',
      providerKind: 'kindCompatible',
      baseUrl: 'https://ollama.example.com/v1',
      auth: { mode: 'apiKey', apiKey: '' },
      configuredModels: [{ remoteModelId: 'llama3.1:8b' }],
      purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'llama3.1:8b' }],
    });
    expect(keyless.status).toBe(201);
    expect(keyless.body.auth).toEqual({ mode: 'apiKey', hasApiKey: false });
  });

  it('refuses a second profile of the same name in the client, ignoring case (409)', async () => {
    expect(
      (
        await admin.post(
          path(),
          body((b) => (b.displayName = 'Twice')),
        )
      ).status,
    ).toBe(201);
    const dup = await admin.post(
      path(),
      body((b) => (b.displayName = 'TWICE')),
    );
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({
      code: 'conflict',
      error: 'This client already has an AI connection with that name.',
    });
  });

  describe('PATCH', () => {
    let id: string;
    let models: Array<{ id: string; remoteModelId: string }>;
    beforeAll(async () => {
      const created = await admin.post(
        path(),
        body((b) => (b.displayName = 'Patched')),
      );
      id = created.body.id;
      models = created.body.configuredModels;
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['configuredModels must not be empty', { configuredModels: [] }, 'configuredModels'],
      ['purposeBindings must not be empty', { purposeBindings: [] }, 'purposeBindings'],
      ['displayName is at most 200 characters', { displayName: 'y'.repeat(201) }, 'displayName'],
      ['baseUrl goes through the egress guard', { baseUrl: 'https://10.1.1.1/v1' }, 'baseUrl'],
      [
        'the new kind must permit the stored modes',
        { providerKind: 'kindCompatible' },
        'configuredModels[0].supportedProtocolModes[1]',
      ],
      [
        'a new kind without embeddings refuses the embedding model',
        { providerKind: 'kindAssistant' },
        'configuredModels[1].operationKinds',
      ],
      ['azureIdentity only for kindCloudA', { auth: { mode: 'azureIdentity' } }, 'auth.mode'],
      [
        'an unknown model id',
        { configuredModels: [{ id: 'nope', remoteModelId: 'gpt-4.1' }] },
        'configuredModels[0].id',
      ],
      [
        'stored bindings must still name a model',
        { configuredModels: [{ remoteModelId: 'gpt-4.1' }] },
        'purposeBindings[1].configuredModelId',
      ],
      [
        'the embedding rules',
        {
          configuredModels: [
            { remoteModelId: 'gpt-4.1' },
            { remoteModelId: 'text-embedding-3-small', tokenizerName: 'c', maxInputTokens: 1, embeddingDimensions: 10 },
          ],
        },
        'configuredModels[1].embeddingDimensions',
      ],
    ])('refuses with 400: %s', async (_rule, patch, expectedPath) => {
      const res = await admin.patch(`${path()}/${id}`, patch);
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: { path: string }) => d.path)).toContain(expectedPath);
    });

    it('keeps model ids across a replacement, by id or remoteModelId, and keeps the stored key', async () => {
      const [gpt, embedding] = models as unknown as [{ id: string }, { id: string }];
      const res = await admin.patch(`${path()}/${id}`, {
        auth: { mode: 'apiKey' },
        configuredModels: [
          {
            id: embedding.id,
            remoteModelId: 'text-embedding-3-small',
            tokenizerName: 'c',
            maxInputTokens: 9,
            embeddingDimensions: 512,
          },
          { remoteModelId: 'GPT-4.1', maxContextTokens: 1000 },
          { remoteModelId: 'gpt-4o-mini' },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.auth).toEqual({ mode: 'apiKey', hasApiKey: true });
      expect(res.body.configuredModels.map((m: { id: string }) => m.id).slice(0, 2)).toEqual([embedding.id, gpt.id]);
      expect(res.body.configuredModels[2].id).not.toBe(gpt.id);
      expect(res.body.purposeBindings.map((b: { configuredModelId: string }) => b.configuredModelId)).toEqual([
        gpt.id,
        embedding.id,
      ]);
    });

    it('answers 404 for an unknown profile and for another client’s profile', async () => {
      expect((await admin.patch(`${path()}/00000000-0000-4000-8000-00000000abcd`, { displayName: 'x' })).status).toBe(
        404,
      );
      const other = (await admin.post('/clients', { displayName: 'Other', tenantId: SYSTEM_TENANT_ID })).body.id;
      expect((await admin.get(`/clients/${other}/ai-connections/${id}`)).status).toBe(404);
      expect((await admin.patch(`/clients/${other}/ai-connections/${id}`, { displayName: 'x' })).status).toBe(404);
      expect((await admin.delete(`/clients/${other}/ai-connections/${id}`)).status).toBe(404);
    });
  });

  it('lists profiles oldest first in pages, and deletes one', async () => {
    const client = (await admin.post('/clients', { displayName: 'Listing', tenantId: SYSTEM_TENANT_ID })).body.id;
    const base = `/clients/${client}/ai-connections`;
    const ids: string[] = [];
    for (const name of ['One', 'Two', 'Three']) {
      ids.push(
        (
          await admin.post(
            base,
            body((b) => (b.displayName = name)),
          )
        ).body.id,
      );
    }
    const first = await admin.get(`${base}?limit=2`);
    expect(first.body.items.map((c: { id: string }) => c.id)).toEqual(ids.slice(0, 2));
    const second = await admin.get(`${base}?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: ids[2] })], nextCursor: null });
    expect((await admin.delete(`${base}/${ids[0]}`)).status).toBe(204);
    expect((await admin.get(`${base}/${ids[0]}`)).status).toBe(404);
    expect((await admin.delete(`${base}/${ids[0]}`)).status).toBe(404);
    expect((await admin.get(`${base}?limit=0`)).status).toBe(400);
  });

  it('answers permitted providers from the registry, unrestricted', async () => {
    const res = await admin.get(`${path()}/permitted-providers`);
    expect(res.status).toBe(200);
    expect(res.body.isRestricted).toBe(false);
    expect(res.body.providers.map((p: { providerKind: string }) => p.providerKind)).toEqual([
      'kindCloudA',
      'kindDirect',
      'kindProxy',
      'kindCompatible',
      'kindAssistant',
      'kindCloudB',
      'kindCloudC',
    ]);
    expect(res.body.providers).toContainEqual({
      providerKind: 'kindAssistant',
      isPermitted: true,
      protocolModes: ['auto', 'messagesApi'],
    });
    expect(res.body.providers).toContainEqual({
      providerKind: 'kindCompatible',
      isPermitted: true,
      protocolModes: ['auto', 'chatCompletions', 'embeddings'],
    });
  });
});

describe('AI connection profiles: a kind’s settings among defaultQueryParams', () => {
  const ACCESS_KEY_ID = 'AKIAIOSFODNN7SETTINGS';
  const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYsettingsKEY';
  const MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
  let bedrock: BedrockFake;
  let host: TestHost;
  let admin: TestApi;
  let clientId: string;
  const path = () => `/clients/${clientId}/ai-connections`;
  /** A Bedrock connection on the fake; `defaultQueryParams` as the wire carries it, region included. */
  const connection = (defaultQueryParams: Record<string, string>) => ({
    providerKind: 'kindCloudB',
    baseUrl: bedrock.url,
    auth: { mode: 'apiKey', apiKey: `${ACCESS_KEY_ID}:${SECRET}` },
    defaultQueryParams,
  });
  const profile = (displayName: string, defaultQueryParams: Record<string, string>) => ({
    ...connection(defaultQueryParams),
    displayName,
    configuredModels: [{ remoteModelId: MODEL }],
    purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: MODEL }],
  });
  const REFUSED_REGION = {
    requestId: expect.any(String),
    code: 'validation_failed',
    error: 'Invalid request: defaultQueryParams.region: must be an AWS region such as us-east-1',
    details: [{ path: 'defaultQueryParams.region', message: 'must be an AWS region such as us-east-1' }],
  };

  beforeAll(async () => {
    bedrock = await startBedrockFake({
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET,
      region: 'us-east-1',
      models: [MODEL],
    });
    // The fake listens on loopback over plain http.
    host = await startTestHost({ env: { MARGIN_ALLOW_PRIVATE_EGRESS: 'true' } });
    admin = await host.admin();
    clientId = (await admin.post('/clients', { displayName: 'Settings', tenantId: SYSTEM_TENANT_ID })).body.id;
  });
  afterAll(async () => {
    await host.close();
    await bedrock.server.close();
  });

  it('refuses a Bedrock region that is not an AWS region on create, update, probe and discovery, before any call', async () => {
    const bad = { region: 'not a region!' };
    const saved = await admin.post(path(), profile('Bedrock', { region: 'us-east-1' }));
    expect(saved.status).toBe(201);
    const answers = [
      await admin.post(path(), profile('Bedrock (bad region)', bad)),
      await admin.patch(`${path()}/${saved.body.id}`, { ...connection(bad) }),
      await admin.post(`${path()}/probe`, connection(bad)),
      await admin.post(`${path()}/discover-models`, connection(bad)),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(REFUSED_REGION);
    }
    expect(bedrock.server.requests).toEqual([]);
    // What was stored is unchanged, and answered as sent.
    expect((await admin.get(`${path()}/${saved.body.id}`)).body.defaultQueryParams).toEqual({ region: 'us-east-1' });
  });

  it('sends every other entry as a query parameter, signed, and keeps the region out of the URL', async () => {
    const params = { region: 'us-east-1', 'api-version': '2024-06-01' };
    const probe = await admin.post(`${path()}/probe`, connection(params));
    expect(probe.body).toMatchObject({ status: 'succeeded' });
    const created = await admin.post(path(), profile('Bedrock with a query parameter', params));
    expect(created.body.defaultQueryParams).toEqual(params);
    expect((await admin.post(`${path()}/${created.body.id}/verify`)).body).toMatchObject({ status: 'verified' });

    const sent = bedrock.server.requests;
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /inference-profiles',
      'GET /inference-profiles',
      `POST /model/${MODEL}/converse`,
    ]);
    for (const request of sent) {
      // The fake checks each SigV4 signature over the exact query, so these answered only if it was signed.
      expect(Object.fromEntries(request.query)).toMatchObject({ 'api-version': '2024-06-01' });
      expect(request.query.has('region')).toBe(false);
    }
  });

  it('words a kind this installation does not register the same for a profile, a probe and the catalog', async () => {
    const refusal = {
      path: 'providerKind',
      message: `AI provider kind kindNope is not available in this installation; use one of ${BUILT_IN_AI_PROVIDER_KINDS.join(', ')}.`,
    };
    const answers = [
      await admin.post(path(), { ...profile('Nope', {}), providerKind: 'kindNope' }),
      await admin.post(`${path()}/probe`, { ...connection({}), providerKind: 'kindNope' }),
      await admin.get(`/clients/${clientId}/model-catalog/models?providerKind=kindNope`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([refusal]);
    }
  });
});
