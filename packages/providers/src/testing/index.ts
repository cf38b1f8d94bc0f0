/**
 * Test support for Margin's adapters: a loopback HTTP fake, one stateful fake per source-control
 * family serving the SCM contract scenario in that provider's own wire shapes, and one fake per AI
 * wire (OpenAI-style, Anthropic, Bedrock, Vertex) answering the AI kind contract's requests. Point a connection's
 * `hostBaseUrl` at a fake (and, for Bitbucket and Entra, the registry's `bitbucketApiBaseUrl` and
 * `entraAuthorityUrl`), and use the credentials exported here.
 */
export {
  type AnthropicFake,
  type AnthropicFakeOptions,
  startAnthropicFake,
} from '../ai/anthropic/anthropic-fake.js';
export { type BedrockFake, type BedrockFakeOptions, startBedrockFake } from '../ai/bedrock/bedrock-fake.js';
export {
  type OpenAiWireFake,
  type OpenAiWireFakeOptions,
  startOpenAiWireFake,
} from '../ai/openai-wire/openai-wire-fake.js';
export { startVertexFake, type VertexFake, type VertexFakeOptions } from '../ai/vertex/vertex-fake.js';
export {
  ADO_CODE_WIKI_REPOSITORY_ID,
  ADO_MERGE_BASE,
  ADO_ORG,
  ADO_PROJECT,
  ADO_REPOSITORY_ID,
  ADO_WIKI_REPOSITORY_ID,
  type AdoRepositoryCommit,
  type AzureDevOpsFake,
  type AzureDevOpsFakeOptions,
  startAzureDevOpsFake,
} from '../scm/azure-devops/azure-devops-fake.js';
export {
  ACCESS_TOKEN as BITBUCKET_ACCESS_TOKEN,
  API_TOKEN_SECRET as BITBUCKET_API_TOKEN_SECRET,
  BAD_ACCESS_TOKEN as BITBUCKET_BAD_ACCESS_TOKEN,
  type BitbucketFake,
  OTHER_REPO_UUID as BITBUCKET_OTHER_REPO_UUID,
  REPO_UUID as BITBUCKET_REPO_UUID,
  startBitbucketFake,
} from '../scm/bitbucket/bitbucket-fake.js';
export {
  type FakeRepositoryCommit,
  GH_MERGE_BASE,
  GH_OWNER,
  GH_REPOSITORY_ID,
  GH_REPOSITORY_NODE_ID,
  type GitHubFake,
  type GitHubFakeOptions,
  gitBlobId,
  startGitHubFake,
} from '../scm/github/github-fake.js';
export {
  GITLAB_BAD_TOKEN,
  GITLAB_TOKEN,
  type GitLabFake,
  PROJECT_ID as GITLAB_PROJECT_ID,
  startGitLabFake,
} from '../scm/gitlab/gitlab-fake.js';
export { type ContractTreeNode, contractTreeAt, contractTreeUnder } from './contract-tree.js';
export {
  FAKE_CHAT_MODEL_ID,
  type FakeChatAnswer,
  type FakeChatModel,
  type FakeChatModelOptions,
  type FakeChatModelProfile,
  type FakeChatModelProfileOptions,
  type FakeChatRequest,
  type FakeChatScript,
  startFakeChatModel,
} from './fake-chat-model.js';
export {
  type AnsweredWrite,
  type FakeHandler,
  type FakeHttpServer,
  type FakeReply,
  type FakeRequest,
  type StalledReply,
  startFakeHttpServer,
} from './fake-http-server.js';
