/**
 * Test support for the CLI, for this package's tests, the reference host's and the examples' (source
 * only; never built): the CLI run as a child process from the current sources, or in this process; a
 * repository with a realistic change and a model finding its defect; the review engine's
 * conversations scripted for a fake model; SARIF checked against the official schema.
 */
export { bundleFromSources } from './bundle-from-sources.js';
export { type CliRun, runCliProcess } from './cli-process.js';
export { runCliInProcess } from './in-process.js';
export { divisionReviewer, FEATURE_STEPS, writeFeatureRepository } from './review-fixtures.js';
export {
  billingScenario,
  confirmAll,
  findingsAnswer,
  isVerifying,
  systemOf,
  userOf,
} from './review-scripts.js';
export { sarifProblems } from './sarif-schema.js';
