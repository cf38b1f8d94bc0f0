import { describeAiProviderKindContract } from '@margin/core/testing';
import { fakeRuntime, profile } from '../shared/ai-adapter-test-kit.js';
import { createOpenAiKind } from './openai-direct-kind.js';
import { startOpenAiWireFake } from './openai-wire-fake.js';

const KEY = 'sk-proj-direct-contract-0123456789';
const BAD_KEY = 'sk-proj-direct-refused-9876543210';

describeAiProviderKindContract('kindDirect (OpenAI)', async () => {
  const fake = await startOpenAiWireFake({
    apiPrefix: '/v1',
    key: KEY,
    scheme: 'bearer',
    models: ['gpt-4.1-mini', 'text-embedding-3-small', 'dall-e-3'],
  });
  return {
    kind: createOpenAiKind(fakeRuntime()),
    connection: profile('kindDirect', `${fake.url}/v1`, { auth: { mode: 'apiKey', apiKey: KEY } }),
    connectionWithBadKey: profile('kindDirect', `${fake.url}/v1`, { auth: { mode: 'apiKey', apiKey: BAD_KEY } }),
    chatModelId: 'gpt-4.1-mini',
    embeddingModelId: 'text-embedding-3-small',
    ...fake.controls,
  };
});
