import { describeAiProviderKindContract } from '@margin/core/testing';
import { fakeRuntime, profile } from '../shared/ai-adapter-test-kit.js';
import { createOpenAiCompatibleKind } from './openai-compatible-kind.js';
import { startOpenAiWireFake } from './openai-wire-fake.js';

const KEY = 'sk-compatible-contract-0123456789';
const BAD_KEY = 'sk-compatible-refused-9876543210';

describeAiProviderKindContract('kindCompatible (OpenAI-compatible server)', async () => {
  const fake = await startOpenAiWireFake({
    apiPrefix: '/v1',
    key: KEY,
    scheme: 'bearer',
    models: ['qwen2.5-coder:14b', 'nomic-embed-text'],
  });
  return {
    kind: createOpenAiCompatibleKind(fakeRuntime()),
    connection: profile('kindCompatible', fake.url, { auth: { mode: 'apiKey', apiKey: KEY } }),
    connectionWithBadKey: profile('kindCompatible', fake.url, { auth: { mode: 'apiKey', apiKey: BAD_KEY } }),
    chatModelId: 'qwen2.5-coder:14b',
    embeddingModelId: 'nomic-embed-text',
    ...fake.controls,
  };
});
