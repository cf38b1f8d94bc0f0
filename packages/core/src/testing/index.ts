/** For tests that check a stored password or tell a job's failure from having no engine. */

/** For tests that check a stored password or tell a job's failure from having no engine. */
export { verifyPassword } from '../identity/index.js';
export { NO_ENGINE } from '../reviewing/index.js';
export {
  type AiKindContractChatAnswer,
  type AiKindContractHarness,
  type AiKindContractRequest,
  describeAiProviderKindContract,
} from './ai-kind-contract.js';
export { collect, marginErrorOf } from './async-results.js';
export { createManualClock, createSequentialIds, type ManualClock } from './fakes.js';
export type { PullRequestScenario, PullRequestScenarioFile, RecordedWrite } from './pull-request-scenario.js';
export {
  type CommitStatusProbe,
  contractTreeDirectories,
  describeScmProviderContract,
  SCENARIO_PULL_REQUEST,
  SCENARIO_PUSH,
  SCM_CONTRACT_SCENARIO,
  type ScmContractHarness,
} from './scm-contract.js';
export { reviewJobRecord } from './storage-contract/fixtures.js';
export { describeStorageContract, type StorageUnderTest } from './storage-contract/index.js';
