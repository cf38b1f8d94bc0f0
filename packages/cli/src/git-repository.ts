import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One commit of a repository written from file trees. */
export interface CommitStep {
  message: string;
  /** Checked out (created from the current commit when new) before the commit is made. */
  branch?: string | undefined;
  /** Files written (text or bytes) or deleted (`null`), relative to the repository root. */
  files?: Record<string, string | Uint8Array | null> | undefined;
  /** `git mv` before the files are written, so a renamed file may also be edited. */
  renames?: Array<[from: string, to: string]> | undefined;
}

/**
 * Writes a git repository commit by commit, with a fixed author, committer and dates, so the same
 * steps give the same commit ids on every machine (the eval's recorded answers and tests rely on
 * it). Line ends are stored exactly as given (`core.autocrlf=false`). Returns each step's commit id.
 */
export function writeGitRepository(dir: string, steps: readonly CommitStep[], env: NodeJS.ProcessEnv = {}): string[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const fixed = {
    ...env,
    GIT_AUTHOR_NAME: 'Margin Eval',
    GIT_AUTHOR_EMAIL: 'eval@margin.invalid',
    GIT_COMMITTER_NAME: 'Margin Eval',
    GIT_COMMITTER_EMAIL: 'eval@margin.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  const git = (args: string[], date?: string) =>
    execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'init.defaultBranch=main', ...args], {
      cwd: dir,
      env: date ? { ...fixed, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : fixed,
      encoding: 'utf8',
    }).trim();
  git(['init', '-q']);
  const shas: string[] = [];
  steps.forEach((step, i) => {
    if (step.branch) {
      const exists = git(['branch', '--list', step.branch]) !== '';
      if (shas.length > 0) git(exists ? ['checkout', '-q', step.branch] : ['checkout', '-q', '-b', step.branch]);
      else git(['symbolic-ref', 'HEAD', `refs/heads/${step.branch}`]);
    }
    for (const [from, to] of step.renames ?? []) {
      mkdirSync(dirname(join(dir, to)), { recursive: true });
      git(['mv', from, to]);
    }
    for (const [path, content] of Object.entries(step.files ?? {})) {
      const target = join(dir, path);
      if (content === null) rmSync(target, { force: true });
      else {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, content);
      }
    }
    git(['add', '-A']);
    git(['commit', '-q', '--allow-empty', '-m', step.message], `2026-01-01T00:${String(i).padStart(2, '0')}:00Z`);
    shas.push(git(['rev-parse', 'HEAD']));
  });
  return shas;
}
