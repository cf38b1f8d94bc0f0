/**
 * Test support: the CLI as a separate operating-system process — bundled from the current sources
 * (`bundleCli`), or any `margin` executable (an installed package's `.bin/margin`) — run to its end.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleFromSources } from './bundle-from-sources.js';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Bundles `src/cli.ts` once per test process and returns the bundle's path. */
export const bundleCli = () =>
  bundleFromSources(join(packageRoot, 'src', 'cli.ts'), join(packageRoot, '.test-build', 'cli.mjs'));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliProcessOptions {
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
}

/**
 * Runs the CLI (bundled from the current sources) as a child process to its end: `margin review
 * ...`, `margin eval ...`. The environment is exactly `env` plus PATH and HOME, so nothing of the
 * test runner's own environment leaks into what is tested.
 */
export async function runCliProcess(args: string[], options: CliProcessOptions = {}): Promise<CliRun> {
  return runExecutable(process.execPath, [await bundleCli(), ...args], options);
}

/** Runs `command` with `args` to its end, as `runCliProcess` runs the bundle. */
export async function runExecutable(command: string, args: string[], options: CliProcessOptions = {}): Promise<CliRun> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? packageRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk.toString();
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
