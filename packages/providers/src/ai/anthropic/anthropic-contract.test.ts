import { describeAiProviderKindContract } from '@margin/core/testing';
import { fakeRuntime, profile } from '../shared/ai-adapter-test-kit.js';
import { startAnthropicFake } from './anthropic-fake.js';
import { createAnthropicKind } from './anthropic-kind.js';

const KEY = 'sk-ant-api03-contract-0123456789';
const BAD_KEY = 'sk-ant-api03-refused-9876543210';

describeAiProviderKindContract('kindAssistant (Anthropic)', async () => {
  const fake = await startAnthropicFake({ key: KEY, models: ['claude-sonnet-4-5', 'claude-haiku-4-5'] });
  return {
    kind: createAnthropicKind(fakeRuntime()),
    connection: profile('kindAssistant', fake.url, { auth: { mode: 'apiKey', apiKey: KEY } }),
    connectionWithBadKey: profile('kindAssistant', fake.url, { auth: { mode: 'apiKey', apiKey: BAD_KEY } }),
    chatModelId: 'claude-sonnet-4-5',
    ...fake.controls,
  };
});
