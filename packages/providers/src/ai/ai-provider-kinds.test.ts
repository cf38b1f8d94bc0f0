import { BUILT_IN_AI_PROVIDER_KINDS, modesOf } from '@margin/core/spec';
import { marginErrorOf } from '@margin/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeHttpServer, startFakeHttpServer } from '../testing/index.js';
import { createAiProviderKinds } from './index.js';
import { chatSpec, profile } from './shared/ai-adapter-test-kit.js';

let fake: FakeHttpServer;
beforeEach(async () => {
  fake = await startFakeHttpServer();
});
afterEach(async () => {
  await fake.close();
});

describe('the AI provider kinds door', () => {
  it('offers all seven kinds in the spec order with the protocol modes decisions.md lists', () => {
    const kinds = createAiProviderKinds();
    expect(kinds.map((k) => k.kind)).toEqual([...BUILT_IN_AI_PROVIDER_KINDS]);
    expect(Object.fromEntries(kinds.map((k) => [k.kind, modesOf(k)]))).toEqual({
      kindCloudA: ['auto', 'responses', 'chatCompletions', 'embeddings'],
      kindDirect: ['auto', 'responses', 'chatCompletions', 'embeddings'],
      kindProxy: ['auto', 'responses', 'chatCompletions', 'embeddings'],
      kindCompatible: ['auto', 'chatCompletions', 'embeddings'],
      kindAssistant: ['auto', 'messagesApi'],
      kindCloudB: ['auto', 'converseApi', 'embeddings'],
      kindCloudC: ['auto', 'generateContentApi', 'embeddings'],
    });
    expect(kinds.filter((k) => !k.supportsDiscovery).map((k) => k.kind)).toEqual(['kindCloudA']);
    // The facts core checks profiles against.
    expect(kinds.filter((k) => !k.requiresApiKey).map((k) => k.kind)).toEqual(['kindCompatible']);
    expect(kinds.filter((k) => k.managedIdentity).map((k) => k.kind)).toEqual(['kindCloudA']);
    expect(kinds.filter((k) => !k.defaultEndpoint).map((k) => k.kind)).toEqual([
      'kindCloudA',
      'kindProxy',
      'kindCompatible',
    ]);
    for (const k of kinds) expect(k.specificationVersion).toBe('v1');
  });

  it('guards egress by default: a plain-http loopback endpoint is refused before any request', async () => {
    const kinds = createAiProviderKinds({ retries: 0 });
    for (const kind of kinds) {
      const connection = profile(kind.kind, fake.url, { settings: { region: 'us-east-1', project: 'my-project' } });
      const error = await marginErrorOf(
        Promise.resolve().then(() =>
          kind.createModel(connection, chatSpec('m')).chat({ messages: [{ role: 'user', content: 'x' }] }),
        ),
      );
      expect(error.details).toMatchObject({ providerFailure: 'egressRefused' });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('reaches loopback fakes when private egress is allowed', async () => {
    fake.on('GET', '/v1/models', () => ({ json: { object: 'list', data: [] } }));
    const direct = createAiProviderKinds({ allowPrivateEgress: true }).find((k) => k.kind === 'kindDirect');
    expect(await direct?.probe(profile('kindDirect', fake.url))).toMatchObject({ status: 'succeeded' });
  });

  it('gives every model a local token count: exact for known OpenAI ids on OpenAI-style kinds, else an estimate', () => {
    const kinds = createAiProviderKinds({ allowPrivateEgress: true });
    const diff = '+const answer = await model.chat(request);';
    const counts = Object.fromEntries(
      kinds.map((kind) => {
        const connection = profile(kind.kind, fake.url, { settings: { region: 'us-east-1', project: 'my-project' } });
        return [kind.kind, kind.createModel(connection, chatSpec('gpt-4.1')).countTokens?.(diff)];
      }),
    );
    const exact = { tokens: 9, exact: true };
    const estimate = { tokens: Math.ceil(diff.length / 3.5), exact: false };
    expect(counts).toEqual({
      kindCloudA: exact,
      kindDirect: exact,
      kindProxy: exact,
      kindCompatible: exact,
      kindAssistant: estimate,
      kindCloudB: estimate,
      kindCloudC: estimate,
    });
  });
});
