import { type ParseArgsConfig, parseArgs } from 'node:util';
import { MarginError } from '@margin/core';

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
