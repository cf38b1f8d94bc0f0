import { describeAiProviderKindContract } from '@margin/core/testing';
import { fakeRuntime, profile } from '../shared/ai-adapter-test-kit.js';
import { createAzureOpenAiKind } from './azure-openai-kind.js';
import { startOpenAiWireFake } from './openai-wire-fake.js';

const KEY = '0123456789abcdef0123456789abcdef';
const BAD_KEY = 'fedcba9876543210fedcba9876543210';

describeAiProviderKindContract('kindCloudA (Azure OpenAI, v1 URLs, api-key)', async () => {
  const fake = await startOpenAiWireFake({
    apiPrefix: '/openai/v1',
    key: KEY,
    scheme: 'apiKeyHeader',
    models: ['gpt-4.1-mini', 'text-embedding-3-small'],
  });
  return {
    kind: createAzureOpenAiKind(fakeRuntime()),
    connection: profile('kindCloudA', fake.url, { auth: { mode: 'apiKey', apiKey: KEY } }),
    connectionWithBadKey: profile('kindCloudA', fake.url, { auth: { mode: 'apiKey', apiKey: BAD_KEY } }),
    // Deployment names.
    chatModelId: 'gpt-4.1-mini',
    embeddingModelId: 'text-embedding-3-small',
    ...fake.controls,
  };
});
