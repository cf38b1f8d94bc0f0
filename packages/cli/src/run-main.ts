import type { CliIo } from './cli-io.js';

/**
 * Runs a `margin` executable as this process: its arguments, streams and environment, with
 * SIGINT/SIGTERM as the commands' abort signal, and exits with the status it answers.
 */
export function runMain(run: (argv: string[], io: CliIo) => Promise<number>): void {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    // A command that shuts down by itself (the host's `serve`) installs its own handlers; the others stop their work and exit.
    process.once(signal, () => controller.abort(new Error(`stopped by ${signal}`)));
  }
  run(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
  }).then(
    (code) => process.exit(code),
    () => process.exit(1),
  );
}
