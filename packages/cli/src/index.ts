/**
 * `@margin/cli`: `margin review` and `margin eval` over `@margin/core` and `@margin/providers`, with
 * no server, database or native code. The reference host (`@margin/server-express`) runs the same
 * commands through `runProgram`, beside its own.
 */
export { parseCommandArgs } from './cli-args.js';
export { type CliEnvironment, loadCliEnvironment } from './cli-environment.js';
export type { CliCommand, CliIo } from './cli-io.js';
export {
  CALL_TIMEOUT_FIELDS,
  type CallTimeouts,
  callTimeoutsOf,
  flag,
  onUnlessFalse,
  optionalText,
  PROVIDER_STATUS_FIELDS,
  SPEND_CAP_FIELDS,
  wholeNumber,
} from './env-fields.js';
export { loadPlugins, pluginSpecifiers } from './load-plugins.js';
export { configuredProviderRegistry, type RegistryBase } from './provider-registry.js';
export { CLI_COMMANDS, type CliProgram, commandList, runCli, runProgram } from './run-cli.js';
export { runMain } from './run-main.js';
