import picomatch from 'picomatch';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { SEVERITIES, type Severity } from '../output/review-answer.js';

/** Where a repository configures its reviews, read from the target branch only. */
export const REPO_CONFIG_PATH = '.margin/config.yml';

/**
 * `.margin/config.yml`:
 *
 *     exclude: ["docs/**", "**\/*.snap"]        # globs of files never reviewed
 *     instructions:                              # per path glob, told to the reviewing model
 *       - path: "src/db/**"
 *         text: "Queries go through the query builder; raw SQL is a finding."
 *     minimumSeverity: warning                   # error | warning | suggestion
 *     maxComments: 10                            # inline comments per review run
 *     thorough: true                             # high-tier chunks asked several times, kept on agreement
 */
export interface RepoConfig {
  exclude: string[];
  instructions: Array<{ path: string; text: string }>;
  minimumSeverity?: Severity | undefined;
  maxComments?: number | undefined;
  /** Thorough mode (reference §6.5) for this repository's high-tier chunks; off when absent. */
  thorough?: boolean | undefined;
}

const FIELDS = {
  exclude: z.array(z.string().trim().min(1).max(300)).max(200),
  instructions: z.union([
    z.array(z.object({ path: z.string().trim().min(1).max(300), text: z.string().trim().min(1).max(2000) })).max(50),
    z.record(z.string().trim().min(1).max(300), z.string().trim().min(1).max(2000)),
  ]),
  minimumSeverity: z.enum(SEVERITIES.filter((s) => s !== 'info') as ['error', 'warning', 'suggestion']),
  maxComments: z.number().int().min(0).max(100),
  thorough: z.boolean(),
};

/**
 * Reads the file field by field: a field that is wrong is reported as a warning and left at its
 * default, the rest still applies — an invalid configuration never fails a review.
 */
export function parseRepoConfig(text: string): { config: RepoConfig; warnings: string[] } {
  const config: RepoConfig = { exclude: [], instructions: [] };
  const warnings: string[] = [];
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    return { config, warnings: [`${REPO_CONFIG_PATH} is not valid YAML (${firstLine(error)}); defaults apply.`] };
  }
  if (raw === null || raw === undefined) return { config, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { config, warnings: [`${REPO_CONFIG_PATH} must be a mapping of settings; defaults apply.`] };
  }
  const record = raw as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(key in FIELDS)) warnings.push(`${REPO_CONFIG_PATH}: unknown setting "${key}" was ignored.`);
  }
  const read = <K extends keyof typeof FIELDS>(key: K): z.output<(typeof FIELDS)[K]> | undefined => {
    if (record[key] === undefined) return undefined;
    const parsed = FIELDS[key].safeParse(record[key]);
    if (parsed.success) return parsed.data as z.output<(typeof FIELDS)[K]>;
    warnings.push(
      `${REPO_CONFIG_PATH}: "${key}" is invalid (${parsed.error.issues[0]?.message ?? 'wrong type'}) and was ignored.`,
    );
    return undefined;
  };
  config.exclude = read('exclude') ?? [];
  const instructions = read('instructions');
  config.instructions = Array.isArray(instructions)
    ? instructions
    : Object.entries(instructions ?? {}).map(([path, text]) => ({ path, text }));
  config.minimumSeverity = read('minimumSeverity');
  config.maxComments = read('maxComments');
  config.thorough = read('thorough');
  return { config, warnings };
}

/** The instructions whose glob matches any of the paths, in file order. */
export function instructionsFor(config: RepoConfig, paths: readonly string[]): string[] {
  return config.instructions
    .filter((i) => {
      const match = picomatch(i.path, { dot: true });
      return paths.some((p) => match(p));
    })
    .map((i) => `${i.text} (applies to ${i.path})`);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'parse error';
}
