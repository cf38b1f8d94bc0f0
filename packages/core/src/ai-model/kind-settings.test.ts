import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { bindReviewModel } from '../ai/index.js';
import { createMarginCore } from '../core.js';
import type { Actor } from '../kernel/index.js';
import { createAesGcmSecretBox, MarginError, SYSTEM_TENANT_ID } from '../kernel/index.js';
import { requestedAiKind } from '../provider-registry/index.js';
import { createMemoryStorage } from '../storage/index.js';
import { marginErrorOf } from '../testing/index.js';
import type { AiConnectionConfig, AiModelV1, AiProviderKindV1 } from './ai-model-v1.js';
import { aiConnectionConfigOf, readKindSettings, settingKeysOf, settingsSchemaProblems } from './kind-settings.js';

const ADMIN: Actor = { userId: 'admin', username: 'admin', globalRole: 'platformAdmin', via: 'accessToken' };

const REGION = /^[a-z]{2}(-[a-z]+)+-\d+$/;
const RegionalSettings = z.object({
  region: z.string().regex(REGION, 'must be a region such as us-east-1').optional(),
  zone: z.string().optional(),
});
type RegionalSettings = z.output<typeof RegionalSettings>;

/** A kind with settings, written as an adapter would, that records every connection it is handed. */
function regionalKind() {
  const seen: AiConnectionConfig<RegionalSettings>[] = [];
  const model = (remoteModelId: string): AiModelV1 => ({
    specificationVersion: 'v1',
    providerKind: 'kindRegional',
    remoteModelId,
    async chat() {
      throw new Error('not used');
    },
    async embed() {
      throw new Error('not used');
    },
  });
  const kind: AiProviderKindV1<RegionalSettings> = {
    specificationVersion: 'v1',
    kind: 'kindRegional',
    displayName: 'Regional',
    protocols: [{ mode: 'regionalChat', operation: 'chat' }],
    supportsDiscovery: false,
    defaultEndpoint: 'https://models.example.com',
    requiresApiKey: true,
    settings: RegionalSettings,
    async probe(connection) {
      seen.push(connection);
      // Typed: the adapter reads its own settings without casts.
      expectTypeOf(connection.settings.region).toEqualTypeOf<string | undefined>();
      return {
        status: 'succeeded',
        summary: `Reached ${connection.settings.region ?? 'the default region'}.`,
        warnings: [],
      };
    },
    async discoverModels(connection) {
      seen.push(connection);
      return { discoveryStatus: 'failed', manualEntryAllowed: true, warnings: ['manual only'], models: [] };
    },
    createModel(connection, spec) {
      seen.push(connection);
      return model(spec.remoteModelId);
    },
  };
  return { kind, seen };
}

describe('a kind’s settings, read from defaultQueryParams', () => {
  const { kind } = regionalKind();

  it('lets a registry hold a kind typed with its settings, as a plain AiProviderKindV1', () => {
    const registry: readonly AiProviderKindV1[] = [kind];
    expect(settingKeysOf(registry[0])).toEqual(['region', 'zone']);
    expect(settingKeysOf(undefined)).toEqual([]);
  });

  it('splits the kind’s settings, parsed, from the real query parameters', () => {
    const reading = readKindSettings(kind, { region: 'eu-west-1', 'api-version': '2024-10-21', tenant: 'blue' });
    expect(reading).toEqual({
      ok: true,
      settings: { region: 'eu-west-1' },
      queryParams: { 'api-version': '2024-10-21', tenant: 'blue' },
    });
  });

  it('treats every entry as a query parameter for a kind that declares no settings', () => {
    expect(readKindSettings({}, { region: 'eu', project: 'p' })).toEqual({
      ok: true,
      settings: {},
      queryParams: { region: 'eu', project: 'p' },
    });
  });

  it('names a refused setting at defaultQueryParams.<key> with the schema’s message', () => {
    expect(readKindSettings(kind, { region: 'not a region!', tenant: 'blue' })).toEqual({
      ok: false,
      issues: [{ path: 'defaultQueryParams.region', message: 'must be a region such as us-east-1' }],
    });
  });

  it('builds the adapter’s connection the same way, and refuses it with a 400 naming the setting', () => {
    const profile = {
      providerKind: 'kindRegional',
      baseUrl: '',
      auth: { mode: 'apiKey' as const, apiKey: 'k' },
      defaultHeaders: { 'x-team': 'a' },
      defaultQueryParams: { region: 'us-east-1', trace: 'on' },
    };
    const config = aiConnectionConfigOf(kind, profile);
    expect(config).toEqual({ ...profile, defaultQueryParams: { trace: 'on' }, settings: { region: 'us-east-1' } });
    expectTypeOf(config.settings).toEqualTypeOf<RegionalSettings>();

    let thrown: unknown;
    try {
      aiConnectionConfigOf(kind, { ...profile, defaultQueryParams: { region: 'us east 1' } });
    } catch (error) {
      thrown = error;
    }
    expect(MarginError.isInstance(thrown) && thrown.toBody()).toEqual({
      code: 'validation_failed',
      error: 'Invalid request: defaultQueryParams.region: must be a region such as us-east-1',
      details: [{ path: 'defaultQueryParams.region', message: 'must be a region such as us-east-1' }],
    });
  });
});

describe('what the contract accepts as a settings schema', () => {
  it('accepts none, or a zod object with id-shaped keys', () => {
    expect(settingsSchemaProblems(undefined)).toEqual([]);
    expect(settingsSchemaProblems(z.object({ region: z.string().optional(), 'api.tier': z.string() }))).toEqual([]);
  });

  it('refuses another schema, and keys that are not id-shaped', () => {
    expect(settingsSchemaProblems(z.record(z.string(), z.string()))).toEqual([
      'settings must be a zod object schema (z.object({...})).',
    ]);
    expect(settingsSchemaProblems({ shape: { region: z.string() } })).toHaveLength(1);
    expect(settingsSchemaProblems(z.object({ 'my region': z.string(), '1st': z.string() }))).toEqual([
      `settings key "my region" must match ${/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/}.`,
      `settings key "1st" must match ${/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/}.`,
    ]);
  });
});

describe('core checks a profile’s settings against its registered kind', () => {
  async function start() {
    const regional = regionalKind();
    const core = createMarginCore({
      storage: createMemoryStorage(),
      secrets: createAesGcmSecretBox(Buffer.alloc(32, 1)),
      auth: { jwtSecret: 'y'.repeat(32) },
      providers: { scm: [], ai: [regional.kind] },
    });
    const client = await core.tenancy.createClient(ADMIN, { displayName: 'Settings', tenantId: SYSTEM_TENANT_ID });
    return { core, clientId: client.id, seen: regional.seen };
  }
  const profile = (defaultQueryParams: Record<string, string>) => ({
    displayName: 'Regional',
    providerKind: 'kindRegional',
    auth: { mode: 'apiKey', apiKey: 'key-0123' },
    defaultQueryParams,
    configuredModels: [{ remoteModelId: 'm1' }],
    purposeBindings: [{ purpose: 'reviewDefault', remoteModelId: 'm1' }],
  });
  const refusal = { path: 'defaultQueryParams.region', message: 'must be a region such as us-east-1' };

  it('refuses a bad setting on create, update, probe and discovery before the adapter is called', async () => {
    const { core, clientId, seen } = await start();
    const bad = { region: 'not a region!' };
    const saved = await core.ai.createAiConnection(ADMIN, clientId, profile({ region: 'eu-west-1' }));
    const calls: Array<() => unknown> = [
      () => core.ai.createAiConnection(ADMIN, clientId, profile(bad)),
      () => core.ai.patchAiConnection(ADMIN, clientId, saved.id, { defaultQueryParams: bad }),
      () => core.ai.probeAiConnection(ADMIN, clientId, { ...profile(bad), displayName: undefined }),
      () => core.ai.discoverAiModels(ADMIN, clientId, { ...profile(bad), displayName: undefined }),
    ];
    for (const call of calls) {
      const error = await marginErrorOf(Promise.resolve().then(call));
      expect(error.code).toBe('validation_failed');
      expect(error.details.details).toEqual([refusal]);
    }
    expect(seen).toEqual([]);
  });

  it('stores and answers defaultQueryParams as sent, and hands the adapter settings and query parameters apart', async () => {
    const { core, clientId, seen } = await start();
    const sent = { region: 'eu-west-1', 'api-version': '2024-10-21' };
    const saved = await core.ai.createAiConnection(ADMIN, clientId, profile(sent));
    expect(saved.defaultQueryParams).toEqual(sent);

    await core.ai.probeAiConnection(ADMIN, clientId, profile(sent));
    await core.ai.verifyAiConnection(ADMIN, clientId, saved.id);
    for (const connection of seen) {
      expect(connection).toMatchObject({
        settings: { region: 'eu-west-1' },
        defaultQueryParams: { 'api-version': '2024-10-21' },
      });
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('applies the same rule to a review without a server, naming the setting in the message', () => {
    const { kind } = regionalKind();
    const bind = (settings: Record<string, string>) =>
      bindReviewModel({
        kinds: [kind],
        providerKind: 'kindRegional',
        baseUrl: '',
        remoteModelId: 'm1',
        apiKey: 'key-0123',
        settings,
        allowPrivateEgress: false,
      });
    expect(() => bind({ region: 'nowhere' })).toThrow(
      'The AI model settings are not usable: defaultQueryParams.region must be a region such as us-east-1.',
    );
    expect(bind({ region: 'us-east-1' }).model.remoteModelId).toBe('m1');
  });

  it('words an unregistered kind the same for a profile, a probe and the catalog, naming the registered kinds', async () => {
    const { core, clientId } = await start();
    const unknown = {
      path: 'providerKind',
      message: 'AI provider kind kindNope is not available in this installation; use one of kindRegional.',
    };
    const calls: Array<() => unknown> = [
      () => core.ai.createAiConnection(ADMIN, clientId, { ...profile({}), providerKind: 'kindNope' }),
      () => core.ai.probeAiConnection(ADMIN, clientId, { ...profile({}), providerKind: 'kindNope' }),
      () => core.ai.listCatalogModels(ADMIN, SYSTEM_TENANT_ID, { providerKind: 'kindNope' }),
      () => requestedAiKind({ scm: [], ai: [regionalKind().kind] }, 'kindNope', 'providerKind'),
    ];
    for (const call of calls) {
      const error = await marginErrorOf(Promise.resolve().then(call));
      expect(error.details.details).toEqual([unknown]);
    }
  });
});
