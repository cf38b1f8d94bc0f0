import type { CliIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';

/** Test support: runs a CLI command in this process with `env` as its whole environment. */
export async function runCliInProcess(
  argv: string[],
  env: Record<string, string>,
  options: { cwd?: string; registryOptions?: CliIo['registryOptions'] } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: {
      write: (t) => {
        stdout += t;
      },
    },
    stderr: {
      write: (t) => {
        stderr += t;
      },
    },
    env,
    cwd: options.cwd ?? process.cwd(),
    signal: new AbortController().signal,
    registryOptions: options.registryOptions,
  });
  return { code, stdout, stderr };
}
