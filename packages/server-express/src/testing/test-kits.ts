/**
 * The route tests' provider fakes, delivery helpers and review scripts (a pull request scenario, the
 * reviewing and verifying model's answers), for other workspace packages' end-to-end tests (the
 * console's browser suite). Source only, like `@margin/providers/testing`: never built or published.
 */
export {
  CHAT_MODEL,
  compatibleProfile,
  EMBEDDING_MODEL,
  type FakeOpenAi,
  startFakeOpenAi,
} from './ai-test-kit.js';
export { type OidcTestIssuer, startOidcTestIssuer, type TestAccount, TestBrowser } from './oidc-test-issuer.js';
export {
  billingScenario,
  confirmAll,
  findingsAnswer,
  isVerifying,
  userOf,
} from './review-test-support.js';
export { type ScmFakes, SECRETS, startScmFakes } from './scm-test-support.js';
export {
  type Delivery,
  delivery,
  FACTS,
  type FamilyName,
  post as postDelivery,
  repoFilter,
} from './triggers-test-support.js';
