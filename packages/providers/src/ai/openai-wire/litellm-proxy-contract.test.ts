import { describeAiProviderKindContract } from '@margin/core/testing';
import { fakeRuntime, profile } from '../shared/ai-adapter-test-kit.js';
import { createLiteLlmProxyKind } from './litellm-proxy-kind.js';
import { startOpenAiWireFake } from './openai-wire-fake.js';

const KEY = 'sk-litellm-contract-0123456789';
const BAD_KEY = 'sk-litellm-refused-9876543210';

describeAiProviderKindContract('kindProxy (LiteLLM proxy)', async () => {
  const fake = await startOpenAiWireFake({
    apiPrefix: '/v1',
    key: KEY,
    scheme: 'bearer',
    models: ['claude-sonnet', 'text-embedding-3-small'],
  });
  fake.onGuarded('GET', '/model/info', () => ({
    data: [
      {
        model_name: 'claude-sonnet',
        model_info: { mode: 'chat', max_input_tokens: 200_000, input_cost_per_token: 3e-6 },
      },
      { model_name: 'text-embedding-3-small', model_info: { mode: 'embedding', output_vector_size: 1536 } },
    ],
  }));
  return {
    kind: createLiteLlmProxyKind(fakeRuntime()),
    connection: profile('kindProxy', fake.url, { auth: { mode: 'apiKey', apiKey: KEY } }),
    connectionWithBadKey: profile('kindProxy', fake.url, { auth: { mode: 'apiKey', apiKey: BAD_KEY } }),
    chatModelId: 'claude-sonnet',
    embeddingModelId: 'text-embedding-3-small',
    ...fake.controls,
  };
});
