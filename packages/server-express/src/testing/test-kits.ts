/**
 * The route tests' provider fakes and delivery helpers, for other workspace packages' end-to-end
 * tests (the console's browser suite). Source only, like `@margin/providers/testing`: never built
 * or published.
 */
export {
  CHAT_MODEL,
  compatibleProfile,
  EMBEDDING_MODEL,
  type FakeOpenAi,
  startFakeOpenAi,
} from '../routes/ai-test-kit.js';
export { type ScmFakes, SECRETS, startScmFakes } from '../routes/scm-test-support.js';
export {
  type Delivery,
  delivery,
  FACTS,
  type FamilyName,
  post as postDelivery,
  repoFilter,
} from '../routes/triggers-test-support.js';
