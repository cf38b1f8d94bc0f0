import { MarginError } from '@margin/core';
import type { CliCommand, CliIo } from './cli-io.js';
import { evalCommand } from './eval/eval-command.js';
import { reviewCommand } from './review/review-command.js';

/** The commands of `@margin/cli`; the reference host's `margin` offers them beside its own. */
export const CLI_COMMANDS: readonly CliCommand[] = [reviewCommand, evalCommand];

/** A `margin` executable: its commands and how it introduces them. */
export interface CliProgram {
  commands: readonly CliCommand[];
  usage: string;
  /** Run when the first argument names no command (none, or an option); without one, that is a usage error. */
  defaultCommand?: string | undefined;
  /** Variables whose values never reach the terminal, besides the model key and the provider token. */
  secretVariables?: readonly string[] | undefined;
}

/** The "Commands:" lines of a usage text: each command's name and summary. */
export const commandList = (commands: readonly CliCommand[]) =>
  commands.map((c) => `  ${c.name.padEnd(9)} ${c.summary}`).join('\n');

export const USAGE = `Usage: margin <command> [options]

Commands:
${commandList(CLI_COMMANDS)}

'margin <command> --help' describes a command's options; see docs/cli.md. The reference host's
commands (serve, migrate, openapi) come with @margin/server-express.`;

const CLI_PROGRAM: CliProgram = { commands: CLI_COMMANDS, usage: USAGE };

/** `margin review ...`, `margin eval ...`: runs one command and answers its exit status. */
export const runCli = (argv: string[], io: CliIo): Promise<number> => runProgram(CLI_PROGRAM, argv, io);

/**
 * Runs one command of `program` and answers its exit status. An expected failure (a `MarginError`)
 * is one line on stderr with the command's failure status; anything else is a generic line — never
 * a stack trace, and never a value of the secrets the command was given.
 */
export async function runProgram(program: CliProgram, argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(`${program.usage}\n`);
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? program.defaultCommand : first;
  if (name === undefined) {
    io.stderr.write(`margin: name a command.\n\n${program.usage}\n`);
    return 2;
  }
  const command = program.commands.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`margin: unknown command '${name}'.\n\n${program.usage}\n`);
    return 2;
  }
  try {
    return await command.run(first === name ? rest : argv, io);
  } catch (error) {
    if (io.signal.aborted) {
      io.stderr.write(`margin ${command.name}: stopped.\n`);
      return 130;
    }
    const message = MarginError.isInstance(error)
      ? error.message
      : `unexpected failure: ${(error as Error)?.message ?? String(error)}`;
    const secrets = ['MARGIN_AI_API_KEY', 'MARGIN_SCM_TOKEN', ...(program.secretVariables ?? [])];
    io.stderr.write(`margin ${command.name}: ${withoutSecrets(oneLine(message), io.env, secrets)}\n`);
    return command.failureStatus;
  }
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** The environment's credentials never reach the terminal, whatever a library put in a message. */
function withoutSecrets(text: string, env: NodeJS.ProcessEnv, names: readonly string[]): string {
  let out = text;
  for (const name of names) {
    const value = env[name]?.trim();
    if (value && value.length >= 4) out = out.split(value).join('[redacted]');
  }
  return out;
}
