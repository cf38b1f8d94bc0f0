export { createManualClock, createSequentialIds, type ManualClock } from './fakes.js';
export { describeStorageContract, type StorageUnderTest } from './storage-contract.js';
