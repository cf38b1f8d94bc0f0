/**
 * Test support: the reference host as a separate operating-system process, started from the current
 * sources (bundled with esbuild on first use, as the CLI's tests bundle theirs), so a test can kill it
 * for real (SIGKILL) and start it again on the same database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleFromSources } from '@margin/cli/testing';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Bundles `src/cli.ts` once per test process and returns the bundle's path. */
const bundleHostCli = () =>
  bundleFromSources(join(packageRoot, 'src', 'cli.ts'), join(packageRoot, '.test-build', 'cli.mjs'));

export interface HostProcess {
  /** The gateway's base URL. */
  url: string;
  child: ChildProcess;
  /** Everything the process wrote to stdout so far. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `margin serve` in its own process with `env`, and waits until it listens. */
export async function startHostProcess(env: Record<string, string>): Promise<HostProcess> {
  const cli = await bundleHostCli();
  const child = spawn(process.execPath, [cli, 'serve'], {
    cwd: packageRoot,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MARGIN_TLS_PORT: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host did not start in time:\n${out}\n${err}`)), 30_000);
    const check = () => {
      const line = out.split('\n').find((l) => l.includes('"margin is listening"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    };
    child.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the host exited (${code ?? signal}) before listening:\n${out}\n${err}`));
    });
  });
  return { url, child, output: () => out, exited };
}
