import { execFile } from 'node:child_process';
import { MarginError } from '@margin/core';

/**
 * Runs the system `git` in a repository and answers its output. Options the user's git
 * configuration could change are fixed, so what Margin reads is what git prints by default: no
 * colour, no external diff or textconv, unquoted paths, git's 3 context lines.
 */
export interface GitContext {
  repo: string;
  /** The environment git runs in (PATH, HOME for its configuration), as the CLI was given it. */
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal | undefined;
}

export function runGit(
  context: GitContext,
  args: string[],
): Promise<{ ok: true; stdout: Buffer } | { ok: false; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['-c', 'core.quotePath=false', '-c', 'color.ui=never', '-C', context.repo, ...args],
      {
        encoding: 'buffer',
        maxBuffer: 512 * 1024 * 1024,
        signal: context.signal,
        env: { ...context.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_EXTERNAL_DIFF: '' },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ ok: true, stdout });
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return reject(
            MarginError.validation(
              'git is not installed (or not on PATH); margin review reads the repository with it.',
            ),
          );
        }
        if (context.signal?.aborted) return reject(error);
        resolve({ ok: false, stderr: stderr.toString('utf8').trim() });
      },
    );
  });
}

/** `runGit` for output that must exist: a failure is a `MarginError` with git's own first line. */
export async function gitText(context: GitContext, args: string[], what: string): Promise<string> {
  const out = await runGit(context, args);
  if (!out.ok) throw MarginError.validation(`${what}: ${out.stderr.split('\n')[0] || 'git failed'}.`);
  return out.stdout.toString('utf8');
}
