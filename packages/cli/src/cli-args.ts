import { type ParseArgsConfig, parseArgs } from 'node:util';
import { MarginError } from '@margin/core';
import { USD_AMOUNT } from './env-fields.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `parseArgs` with its refusals as one-line `MarginError`s ("Unknown option --x."), so a typo
 * gets exit status 2 and a message, not a stack trace.
 */
export function parseCommandArgs<T extends Options>(
  argv: string[],
  options: T,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>> {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS')) throw error;
    const first =
      String((error as Error).message)
        .split('. ')[0]
        ?.replace(/'/g, '') ?? 'Invalid arguments';
    throw MarginError.validation(`${first}.`);
  }
}

/** Flag names someone might try for a credential: `--api-key`, `--key`, `--openai-api-key`, `--token`, `--pat`, ... */
const CREDENTIAL_FLAG = /(?:^|-)(?:api-?key|key|secret|password|token|pat)$/;

/**
 * Refuses a credential given as a flag, before anything else reads the arguments: the model's key
 * is read from `MARGIN_AI_API_KEY` and the provider's token from `MARGIN_SCM_TOKEN` only, so they
 * never show in a process list or a shell history. The message names the flag, never its value
 * (neither `--key=VALUE` nor the argument after it).
 */
export function refuseCredentialFlags(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    if (!arg.startsWith('-')) continue;
    const name = arg.replace(/^-+/, '').split('=')[0]?.toLowerCase() ?? '';
    if (!CREDENTIAL_FLAG.test(name)) continue;
    const [what, variable] = /(?:token|pat)$/.test(name)
      ? ['the provider token', 'MARGIN_SCM_TOKEN']
      : ['the model key', 'MARGIN_AI_API_KEY'];
    throw MarginError.validation(
      `--${name} is not accepted: ${what} is read from ${variable} only, so it never shows in a process list or shell history.`,
    );
  }
}

/** A flag limited to a few values: the value, or a message naming the flag and the choices. */
export function oneOf<const T extends readonly string[]>(
  flag: string,
  value: string | undefined,
  choices: T,
  fallback: T[number],
): T[number] {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T[number];
  throw MarginError.validation(`${flag} must be one of ${choices.join(', ')} (got '${value}').`);
}

/** A flag's amount of US dollars, 0 or more (`2.50`), or a message naming the flag and the value. */
export function usdFlag(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!USD_AMOUNT.test(value.trim())) {
    throw MarginError.validation(
      `${flag} takes an amount of US dollars, 0 or more, such as 2.50 (got '${value.slice(0, 64)}').`,
    );
  }
  return Number(value.trim());
}
