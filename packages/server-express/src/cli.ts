#!/usr/bin/env node
import { runCli } from './cli/run-cli.js';

const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  // `serve` installs its own handlers; other commands stop their work and exit.
  process.once(signal, () => controller.abort(new Error(`stopped by ${signal}`)));
}

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: controller.signal,
}).then(
  (code) => process.exit(code),
  () => process.exit(1),
);
