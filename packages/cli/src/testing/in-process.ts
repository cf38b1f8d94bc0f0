import type { CliIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';

/**
 * Test support: runs a CLI command in this process with `env` as its whole environment. `tty`
 * makes stdout or stderr claim to be a terminal (`isTTY`), as a person's shell would; `run` is
 * another executable's runner (the reference host's), by default this package's.
 */
export async function runCliInProcess(
  argv: string[],
  env: Record<string, string>,
  options: {
    cwd?: string;
    registryOptions?: CliIo['registryOptions'];
    tty?: { stdout?: boolean; stderr?: boolean };
    run?: (argv: string[], io: CliIo) => Promise<number>;
  } = {},
) {
  let stdout = '';
  let stderr = '';
  const code = await (options.run ?? runCli)(argv, {
    stdout: {
      isTTY: options.tty?.stdout,
      write: (t) => {
        stdout += t;
      },
    },
    stderr: {
      isTTY: options.tty?.stderr,
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
