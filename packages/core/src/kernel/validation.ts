import { z } from 'zod';

/**
 * The zod pieces every capability's schemas share, so a message reads the same wherever a field
 * is checked. Capabilities build their API models from these; nothing here knows a capability.
 */

export const timestamp = z.string().meta({ description: 'ISO-8601 UTC timestamp.', format: 'date-time' });

/** For type and enum issues only; a check's own issues keep their messages (or zod's). */
export const required = (expected: string) => (issue: { code?: string; input?: unknown }) => {
  if (issue.code !== 'invalid_type' && issue.code !== 'invalid_value' && issue.code !== 'invalid_union')
    return undefined;
  return issue.input === undefined ? 'is required' : `must be ${expected}`;
};

export const oneOf = (values: readonly string[]) => required(`one of ${values.join(', ')}`);

/**
 * The largest whole number a stored integer column holds on every dialect (PostgreSQL `integer`):
 * pull request numbers above it are no real provider's, and would fail in storage as a 500.
 */
export const MAX_STORED_INTEGER = 2_147_483_647;
export const storedIntegerMessage = `must be at most ${MAX_STORED_INTEGER}`;

/** Trimmed, non-blank text of at most `max` characters. */
export const text = (max: number) =>
  z
    .string({ error: required('a string') })
    .trim()
    .min(1, 'must not be blank')
    .max(max, `must be at most ${max} characters`);

/** What registered ids look like: provider families, AI provider kinds and protocol modes. */
export const REGISTERED_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * A value of a registry that adapters extend (provider families, AI provider kinds, protocol
 * modes). Any id-shaped string parses; whether the running installation has it registered is the
 * use case's check (`requestedScmFamily`, `requestedAiKind`), since a plugin may add one. `openapi.json` lists the
 * built-in values as the known ones, and the SDK's types still accept others.
 */
export function registeredId<const T extends string>(known: readonly [T, ...T[]], what: string) {
  return z.union(
    [
      z.enum(known),
      z.string().regex(REGISTERED_ID_PATTERN, `must be a ${what}: ${known.join(', ')} or a registered one`),
    ],
    { error: required(`a ${what}: ${known.join(', ')} or a registered one`) },
  );
}
