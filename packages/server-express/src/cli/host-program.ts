import { CLI_COMMANDS, type CliIo, type CliProgram, commandList, runProgram } from '@margin/cli';
import { migrateCommand } from './migrate-command.js';
import { openapiCommand } from './openapi-command.js';
import { serveCommand } from './serve-command.js';

// `review` and `eval` are @margin/cli's, run by its runner: one implementation, two executables.
const COMMANDS = [serveCommand, migrateCommand, openapiCommand, ...CLI_COMMANDS];

export const USAGE = `Usage: margin <command> [options]

Commands:
${commandList(COMMANDS)}

'margin <command> --help' describes a command's options. The host's configuration comes from the
environment; see docs/operations.md. 'review' and 'eval' are described in docs/cli.md.`;

const HOST_PROGRAM: CliProgram = {
  commands: COMMANDS,
  usage: USAGE,
  defaultCommand: 'serve',
  secretVariables: ['MARGIN_JWT_SECRET', 'MARGIN_SECRETS_KEY'],
};

/** The reference host's `margin`: `serve` (the default), `migrate`, `openapi`, and the CLI's `review` and `eval`. */
export const runCli = (argv: string[], io: CliIo): Promise<number> => runProgram(HOST_PROGRAM, argv, io);
