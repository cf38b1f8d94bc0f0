import { describeAiProviderKindContract } from '@margin/core/testing';
import { fakeRuntime, storedProfile } from '../shared/ai-adapter-test-kit.js';
import { startVertexFake } from './vertex-fake.js';
import { createVertexKind } from './vertex-kind.js';

const KEY = 'AIzaSyContract0123456789abcdefghijk';
const BAD_KEY = 'AIzaSyRefused9876543210zyxwvutsrqp';

describeAiProviderKindContract('kindCloudC (Google Vertex AI, API key)', async () => {
  const fake = await startVertexFake({
    key: KEY,
    project: 'margin-contract',
    location: 'us-central1',
    models: ['gemini-2.5-flash', 'text-embedding-005'],
  });
  const kind = createVertexKind(fakeRuntime());
  const connection = (apiKey: string) =>
    storedProfile(kind, fake.url, {
      auth: { mode: 'apiKey', apiKey },
      defaultQueryParams: { project: 'margin-contract', location: 'us-central1' },
    });
  return {
    kind,
    connection: connection(KEY),
    connectionWithBadKey: connection(BAD_KEY),
    chatModelId: 'gemini-2.5-flash',
    embeddingModelId: 'text-embedding-005',
    ...fake.controls,
  };
});
