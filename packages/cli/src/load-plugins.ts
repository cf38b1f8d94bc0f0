import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MarginError } from '@margin/core';
import type { ProviderPlugin } from '@margin/providers';

/** `MARGIN_PLUGINS`: comma-separated package names or file paths. */
export const pluginSpecifiers = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * The plugins `MARGIN_PLUGINS` names: each a package name or a file path (relative to the working
 * directory) whose module exports a `ProviderPlugin` — as `default` or `plugin`, or a function of no
 * arguments returning one. A plugin that cannot be loaded stops the command (or the reference host's
 * start) with one line saying which.
 */
export async function loadPlugins(specifiers: readonly string[], cwd = process.cwd()): Promise<ProviderPlugin[]> {
  const plugins: ProviderPlugin[] = [];
  for (const specifier of specifiers) {
    const target = isPath(specifier) ? pathToFileURL(resolve(cwd, specifier)).href : specifier;
    let module: Record<string, unknown>;
    try {
      module = (await import(target)) as Record<string, unknown>;
    } catch (error) {
      throw refused(
        specifier,
        `could not be loaded (${error instanceof Error ? error.message.split('\n')[0] : 'unknown error'})`,
      );
    }
    const exported = module.plugin ?? module.default;
    const plugin = typeof exported === 'function' ? (exported as () => unknown)() : exported;
    if (!isPlugin(plugin)) {
      throw refused(
        specifier,
        'exports no Margin plugin: `default` or `plugin` must be a ProviderPlugin ({ name, scm?, ai? }) or a function returning one',
      );
    }
    plugins.push(plugin);
  }
  return plugins;
}

const isPath = (specifier: string) =>
  isAbsolute(specifier) || specifier.startsWith('./') || specifier.startsWith('../');

function isPlugin(value: unknown): value is ProviderPlugin {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return (
    typeof p.name === 'string' &&
    (p.scm === undefined || typeof p.scm === 'function') &&
    (p.ai === undefined || typeof p.ai === 'function') &&
    (p.scm !== undefined || p.ai !== undefined)
  );
}

const refused = (specifier: string, why: string) =>
  MarginError.validation(`Invalid configuration: MARGIN_PLUGINS entry '${specifier}' ${why}.`);
