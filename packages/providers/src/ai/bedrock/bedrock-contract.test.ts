import { describeAiProviderKindContract } from '@margin/core/testing';
import { fakeRuntime, storedProfile } from '../shared/ai-adapter-test-kit.js';
import { startBedrockFake } from './bedrock-fake.js';
import { createBedrockKind } from './bedrock-kind.js';

const ACCESS_KEY_ID = 'AKIAIOSFODNN7CONTRACT';
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYcontractKEY';
const BAD_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYrefusedKEY';
const CHAT_MODEL = 'anthropic.claude-3-5-haiku-20241022-v1:0';
const EMBEDDING_MODEL = 'amazon.titan-embed-text-v2:0';

describeAiProviderKindContract('kindCloudB (AWS Bedrock, SigV4)', async () => {
  const fake = await startBedrockFake({
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET,
    region: 'us-east-1',
    models: [CHAT_MODEL, EMBEDDING_MODEL],
  });
  const kind = createBedrockKind(fakeRuntime());
  const connection = (secret: string) =>
    storedProfile(kind, fake.url, {
      auth: { mode: 'apiKey', apiKey: `${ACCESS_KEY_ID}:${secret}` },
      defaultQueryParams: { region: 'us-east-1' },
    });
  return {
    kind,
    connection: connection(SECRET),
    connectionWithBadKey: connection(BAD_SECRET),
    secrets: [SECRET, BAD_SECRET],
    chatModelId: CHAT_MODEL,
    embeddingModelId: EMBEDDING_MODEL,
    ...fake.controls,
  };
});
