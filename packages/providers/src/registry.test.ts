import type { AiProviderKindV1, ScmConnectionConfig, ScmProviderFamilyV1 } from '@margin/core/spec';
import { marginErrorOf } from '@margin/core/testing';
import { describe, expect, it } from 'vitest';
import { createProviderRegistry, type ProviderPlugin } from './registry.js';
import { startFakeHttpServer } from './testing/index.js';
import type { HttpTuning } from './utils/index.js';

const family = (id: string) =>
  ({
    specificationVersion: 'v1',
    family: id,
    displayName: id,
    authenticationKinds: ['personalAccessToken'],
    receiverSegment: id,
    codeReviewPlatform: 'pullRequest',
    capabilities: { repositoriesById: false, wikiSources: false },
    connect: () => {
      throw new Error('not used');
    },
    webhook: { authenticate: () => false, parse: () => ({ kind: 'ignored', eventType: 'x', reason: 'x' }) },
  }) as unknown as ScmProviderFamilyV1;

const kind = (id: string) =>
  ({
    kind: id,
    displayName: id,
    protocols: [{ mode: 'acmeGenerate', operation: 'chat' }],
  }) as unknown as AiProviderKindV1;

describe('the provider registry with plugins', () => {
  it('adds a plugin’s families and kinds after the built-ins, and lets one replace a built-in of its id', () => {
    const plugin: ProviderPlugin = {
      name: '@acme/margin-plugins',
      scm: () => [family('forgejo'), family('gitHostC')],
      ai: () => [kind('kindAcme')],
    };
    const registry = createProviderRegistry({ plugins: [plugin] });
    expect(registry.scm.map((f) => f.family)).toEqual(['suiteDevOps', 'gitHostA', 'gitHostB', 'gitHostC', 'forgejo']);
    expect(registry.scm.find((f) => f.family === 'gitHostC')?.displayName).toBe('gitHostC');
    expect(registry.ai.map((k) => k.kind).at(-1)).toBe('kindAcme');
    expect(registry.ai).toHaveLength(8);
  });

  it('refuses two plugins registering the same id', async () => {
    const twice = (name: string): ProviderPlugin => ({ name, scm: () => [family('forgejo')] });
    const error = await marginErrorOf(
      Promise.resolve().then(() => createProviderRegistry({ plugins: [twice('one'), twice('two')] })),
    );
    expect(error.message).toBe("Plugins one and two both register the provider family 'forgejo'.");
  });

  it('hands plugins the guarded network the built-ins use: a metadata address is refused before any request', async () => {
    let network: typeof fetch | undefined;
    let runtimeFetch: typeof fetch | undefined;
    createProviderRegistry({
      plugins: [
        {
          name: 'probe',
          scm: ({ fetch }) => {
            network = fetch;
            return [];
          },
          ai: (runtime) => {
            runtimeFetch = runtime.fetch;
            return [];
          },
        },
      ],
    });
    for (const f of [network, runtimeFetch]) {
      await expect((f as typeof fetch)('https://169.254.169.254/latest/meta-data/')).rejects.toThrow(/metadata|refus/i);
    }
  });
});

describe('the provider registry’s source-control tuning', () => {
  it('gives every built-in family the deadline it is handed, and hands it to plugins', async () => {
    const fake = await startFakeHttpServer();
    try {
      fake.on('GET', '*', () => ({ json: { padding: 'x'.repeat(400) }, trickleMs: 50 }));
      let pluginTuning: HttpTuning | undefined;
      const scm: HttpTuning = { timeoutMs: 200, retries: 0 };
      const registry = createProviderRegistry({
        scm,
        bitbucketApiBaseUrl: fake.url,
        plugins: [
          {
            name: 'probe',
            scm: ({ http }) => {
              pluginTuning = http;
              return [];
            },
          },
        ],
      });
      expect(pluginTuning).toEqual(scm);
      const connection = (family: string): ScmConnectionConfig =>
        ({
          family,
          authenticationKind: 'personalAccessToken',
          hostBaseUrl: fake.url,
          secret: 'pat',
        }) as ScmConnectionConfig;
      const failures = await Promise.all(
        registry.scm.map((f) => marginErrorOf(Promise.resolve().then(() => f.connect(connection(f.family)).verify()))),
      );
      expect(failures.map((e) => [e.details.providerFailure, e.message])).toEqual([
        ['timeout', 'Azure DevOps did not answer within 0.2 s.'],
        ['timeout', 'GitHub did not answer within 0.2 s.'],
        ['timeout', 'GitLab did not answer within 0.2 s.'],
        ['timeout', 'Bitbucket did not answer within 0.2 s.'],
      ]);
    } finally {
      await fake.close();
    }
  });
});
