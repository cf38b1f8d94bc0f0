export { collect, marginErrorOf } from './async-results.js';
export { createManualClock, createSequentialIds, type ManualClock } from './fakes.js';
export { describeScmProviderContract, SCM_CONTRACT_SCENARIO, type ScmContractHarness } from './scm-contract.js';
export { reviewJobRecord } from './storage-contract/fixtures.js';
export { describeStorageContract, type StorageUnderTest } from './storage-contract/index.js';
