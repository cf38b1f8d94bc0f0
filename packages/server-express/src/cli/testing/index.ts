/**
 * Test support for the CLI, for this package's tests and the examples' (source only; never built):
 * the CLI run as a child process from the current sources, in this process, a repository with a
 * realistic change, a model finding its defect, and SARIF checked against the official schema.
 */
export { type CliRun, runCliProcess } from '../../testing/host-process.js';
export { runCliInProcess } from './in-process.js';
export { divisionReviewer, FEATURE_STEPS, writeFeatureRepository } from './review-fixtures.js';
export { sarifProblems } from './sarif-schema.js';
