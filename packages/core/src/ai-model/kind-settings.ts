import { z } from 'zod';
import { MarginError, REGISTERED_ID_PATTERN, type ValidationIssue } from '../kernel/index.js';
import type { AiConnectionConfig, AiConnectionProfile, AiKindSettings, AiProviderKindV1 } from './ai-model-v1.js';

type SettingsOf<T extends AiKindSettings> = Pick<AiProviderKindV1<T>, 'settings'> | undefined;

/** The `defaultQueryParams` keys a kind reads as its settings; none for an unregistered kind. */
export function settingKeysOf(kind: SettingsOf<AiKindSettings>): string[] {
  return kind?.settings ? Object.keys(kind.settings.shape) : [];
}

type SettingsReading<T> =
  | { ok: true; settings: T; queryParams: Record<string, string> }
  | { ok: false; issues: ValidationIssue[] };

/**
 * Splits a profile's `defaultQueryParams` into the kind's settings, parsed by its schema, and the
 * real query parameters (every other entry). A setting that fails the schema is an issue at
 * `defaultQueryParams.<key>` with the schema's message, so the caller names the field it came in.
 */
export function readKindSettings<T extends AiKindSettings>(
  kind: SettingsOf<T>,
  defaultQueryParams: Readonly<Record<string, string>>,
): SettingsReading<T> {
  const keys = new Set(settingKeysOf(kind));
  const given: Record<string, string> = {};
  const queryParams: Record<string, string> = {};
  for (const [key, value] of Object.entries(defaultQueryParams)) {
    if (keys.has(key)) given[key] = value;
    else queryParams[key] = value;
  }
  if (!kind?.settings) {
    // Nothing to parse: a kind without a schema reads no settings, whatever its declared type.
    return { ok: true, settings: {} as T, queryParams };
  }
  const schema: z.ZodType<T> = kind.settings;
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    return {
      ok: false,
      issues: parsed.error.issues.map((issue) => ({
        path: ['defaultQueryParams', ...issue.path.map(String)].join('.'),
        message: issue.message,
      })),
    };
  }
  return { ok: true, settings: parsed.data, queryParams };
}

/**
 * The connection an adapter is handed: the profile with `defaultQueryParams` split into the kind's
 * parsed `settings` and the real query parameters. The one way core (and anyone calling an adapter
 * directly) builds one. Settings the kind's schema refuses are a 400 naming
 * `defaultQueryParams.<key>`: profiles are checked when saved, so this is a profile saved before the
 * kind's schema tightened, or one built by hand.
 */
export function aiConnectionConfigOf<T extends AiKindSettings>(
  kind: SettingsOf<T>,
  profile: AiConnectionProfile,
): AiConnectionConfig<T> {
  const reading = readKindSettings(kind, profile.defaultQueryParams);
  if (!reading.ok) throw MarginError.invalid(reading.issues);
  return {
    providerKind: profile.providerKind,
    baseUrl: profile.baseUrl,
    auth: profile.auth,
    defaultHeaders: { ...profile.defaultHeaders },
    defaultQueryParams: reading.queryParams,
    settings: reading.settings,
  };
}

/**
 * What is wrong with a kind's declared settings schema, if anything: it must be a zod object (core
 * reads its keys) whose keys are id-shaped, since they share `defaultQueryParams` with real query
 * parameters and appear in messages and flags (`--ai-setting region=…`).
 */
export function settingsSchemaProblems(settings: unknown): string[] {
  if (settings === undefined) return [];
  // zod 4's instanceof checks the schema's traits, so a plugin's own copy of zod passes too.
  if (!(settings instanceof z.ZodObject)) return ['settings must be a zod object schema (z.object({...})).'];
  return Object.keys(settings.shape)
    .filter((key) => !REGISTERED_ID_PATTERN.test(key))
    .map((key) => `settings key ${JSON.stringify(key)} must match ${REGISTERED_ID_PATTERN}.`);
}
