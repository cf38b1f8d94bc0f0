import type { RegistryBase } from './provider-registry.js';

/** What a command reads and writes, so commands run the same in a process and in a test. */
export interface CliIo {
  stdout: { write(text: string): void; isTTY?: boolean | undefined };
  stderr: { write(text: string): void; isTTY?: boolean | undefined };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on SIGINT/SIGTERM: a review stops its calls and exits. */
  signal: AbortSignal;
  /** Tests reach provider fakes through these (e.g. Bitbucket's API root); the real CLI passes none. */
  registryOptions?: RegistryBase | undefined;
}

export interface CliCommand {
  name: string;
  /** One line for `margin --help`. */
  summary: string;
  /** Exit status for an operational failure (a `MarginError`). */
  failureStatus: number;
  run(argv: string[], io: CliIo): Promise<number>;
}
