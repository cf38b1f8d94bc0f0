/**
 * Test support: the reference host as a separate operating-system process, started from the current
 * sources, so a test can kill it for real (SIGKILL) and start it again on the same database. The CLI
 * is bundled with esbuild on first use; every package dependency stays external, imported by the
 * absolute path esbuild resolved, so the bundle runs from anywhere without a workspace build.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let bundled: Promise<string> | undefined;

/** Bundles `src/cli.ts` once per test process and returns the bundle's path. */
export function bundleCli(): Promise<string> {
  bundled ??= (async () => {
    // Every test process bundles the same sources: each writes its own file and renames it over the
    // one bundle, so readers never see a half-written file and runs leave one file behind, not one each.
    const outfile = join(packageRoot, '.test-build', 'cli.mjs');
    const written = `${outfile}.${process.pid}.tmp`;
    await mkdir(dirname(outfile), { recursive: true });
    await build({
      entryPoints: [join(packageRoot, 'src', 'cli.ts')],
      outfile: written,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      conditions: ['@margin/source'],
      logLevel: 'error',
      plugins: [externalByAbsolutePath],
    });
    await rename(written, outfile);
    return outfile;
  })();
  return bundled;
}

/** Our own packages are bundled from source; everything else is imported where it is installed. */
const externalByAbsolutePath: Plugin = {
  name: 'external-by-absolute-path',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('@margin/') || args.pluginData === 'resolving') return undefined;
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const resolved = await b.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'resolving',
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: pathToFileURL(resolved.path).href, external: true };
    });
  },
};

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
  const cli = await bundleCli();
  const child = spawn(process.execPath, [cli, 'serve'], {
    cwd: packageRoot,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
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

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI (bundled from the current sources, as `startHostProcess` does) as a child process
 * to its end: `margin review ...`, `margin eval ...`. The environment is exactly `env` plus PATH
 * and HOME, so nothing of the test runner's own environment leaks into what is tested.
 */
export async function runCliProcess(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  const cli = await bundleCli();
  const child = spawn(process.execPath, [cli, ...args], {
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
