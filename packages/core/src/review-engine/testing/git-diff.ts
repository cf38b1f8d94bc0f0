/**
 * Test support: the `git diff` of a real commit, per file, so diff reading and anchoring are tested
 * on what git prints (renames, deletions, several hunks, missing final newlines, CRLF), not on
 * hand-written diffs. Runs the system `git` in a temporary repository.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitChange {
  /** Base content of the file; absent for an added file. */
  before?: string;
  /** Head content; absent for a deleted file. */
  after?: string;
  /** Head path when the file is renamed. */
  renameTo?: string;
}

/** The diff of each changed file keyed by head path (base path for deletions), without `diff --git`. */
export function gitDiffOf(changes: Record<string, GitChange>): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'margin-gitdiff-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
      cwd: dir,
      encoding: 'utf8',
    });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  try {
    git('init', '-q');
    for (const [path, change] of Object.entries(changes)) if (change.before !== undefined) write(path, change.before);
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', 'base');
    for (const [path, change] of Object.entries(changes)) {
      if (change.renameTo) {
        git('mv', path, change.renameTo);
        if (change.after !== undefined) write(change.renameTo, change.after);
      } else if (change.after === undefined) unlinkSync(join(dir, path));
      else write(path, change.after);
    }
    git('add', '-A');
    git('commit', '-q', '-m', 'head');
    const out = git('diff', '-M', '--no-color', 'HEAD~1', 'HEAD');
    const files: Record<string, string> = {};
    for (const block of out.split(/^diff --git .*\n/m).filter(Boolean)) {
      const kept = block
        .split('\n')
        .filter(
          (l) =>
            !/^(index |similarity index|rename from|rename to|new file mode|deleted file mode|old mode|new mode)/.test(
              l,
            ),
        )
        .join('\n');
      const plus = /^\+\+\+ (?:b\/)?(.*)$/m.exec(kept)?.[1];
      const minus = /^--- (?:a\/)?(.*)$/m.exec(kept)?.[1];
      const renamed = /^rename to (.*)$/m.exec(block)?.[1];
      const binary = /^Binary files (?:a\/)?(\S+) and (?:b\/)?(\S+) differ/m.exec(block);
      const key =
        plus && plus !== '/dev/null'
          ? plus
          : (renamed ?? (minus && minus !== '/dev/null' ? minus : (binary?.[2] ?? '')));
      files[key] =
        renamed && !kept.includes('--- ')
          ? `--- a/${/^rename from (.*)$/m.exec(block)?.[1]}\n+++ b/${renamed}\n`
          : kept;
    }
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
