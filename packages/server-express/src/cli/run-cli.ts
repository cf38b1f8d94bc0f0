import { MarginError } from '@margin/core';
import type { CliCommand, CliIo } from './cli-io.js';
import { evalCommand } from './eval/eval-command.js';
import { migrateCommand } from './migrate-command.js';
import { openapiCommand } from './openapi-command.js';
import { reviewCommand } from './review/review-command.js';
import { serveCommand } from './serve-command.js';

const COMMANDS: readonly CliCommand[] = [serveCommand, migrateCommand, openapiCommand, reviewCommand, evalCommand];

export const USAGE = `Usage: margin <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(9)} ${c.summary}`).join('\n')}

'margin <command> --help' describes a command's options. The host's configuration comes from the
environment; see docs/operations.md. 'review' and 'eval' are described in docs/cli.md.`;

/**
 * Runs one command and answers its exit status. An expected failure (a `MarginError`) is one line
 * on stderr with the command's failure status; anything else is a generic line — never a stack
 * trace, and never a value of the secrets the command was given.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? 'serve' : first;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(`margin: unknown command '${name}'.\n\n${USAGE}\n`);
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
    io.stderr.write(`margin ${command.name}: ${withoutSecrets(oneLine(message), io.env)}\n`);
    return command.failureStatus;
  }
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

/** The environment's credentials never reach the terminal, whatever a library put in a message. */
function withoutSecrets(text: string, env: NodeJS.ProcessEnv): string {
  let out = text;
  for (const name of ['MARGIN_AI_API_KEY', 'MARGIN_SCM_TOKEN', 'MARGIN_JWT_SECRET', 'MARGIN_SECRETS_KEY']) {
    const value = env[name]?.trim();
    if (value && value.length >= 4) out = out.split(value).join('[redacted]');
  }
  return out;
}
