import type { ChangeType } from '@margin/core';
import type { PullRequestScenario } from '@margin/core/testing';
import { computeUnifiedDiff } from '../scm/shared/index.js';

/**
 * The git side of a provider fake that serves `PullRequestScenario`s: commits with their files and
 * parents, branch tips, and every revision of each pull request, so a fake can answer "this file at
 * that commit", "what changed between these two commits" and "where do they meet" the way its
 * provider would. Provider shapes (GitLab `diffs[]`, Bitbucket diffstat, …) are built by each fake
 * from the `FileChange`s given here.
 */

export interface FileVersion {
  text: string;
  binary: boolean;
}

/** One file's change between two commits, with both versions. */
export interface FileChange {
  changeType: ChangeType;
  /** Undefined for an added file. */
  oldPath: string | undefined;
  /** Undefined for a deleted file. */
  newPath: string | undefined;
  oldText: string;
  newText: string;
  binary: boolean;
}

export interface ScenarioRevision {
  headSha: string;
  baseSha: string;
  mergeBaseSha: string;
  /** The scenario's files, in its order: the pull request's diff at this head. */
  changes: FileChange[];
}

export interface LoadedPullRequest {
  scenario: PullRequestScenario;
  /** Oldest first; a push appends. */
  revisions: ScenarioRevision[];
}

interface Commit {
  parents: string[];
  files: Map<string, FileVersion>;
}

export class ScenarioHistory {
  private readonly commits = new Map<string, Commit>();
  private readonly branchTips = new Map<string, string>();
  private readonly branchFiles = new Map<string, Map<string, string>>();
  /** Renames any loaded scenario declared, old path → new path, to pair them in commit comparisons. */
  private readonly renames = new Map<string, string>();
  readonly pullRequests = new Map<number, LoadedPullRequest>();

  /**
   * Loads a scenario. The same `number` with another `headSha` is a push: the new head's parent is
   * the previous head (`ahead`, the default) or the merge base (`diverged`, a force push). The same
   * head again replaces the newest revision.
   */
  load(scenario: PullRequestScenario): LoadedPullRequest {
    const mergeBaseSha = scenario.mergeBaseSha ?? scenario.baseSha;
    const before = new Map<string, FileVersion>();
    const after = new Map<string, FileVersion>();
    for (const file of scenario.files) {
      const binary = file.binary === true;
      if (file.oldText !== undefined) before.set(file.previousPath ?? file.path, { text: file.oldText, binary });
      if (file.newText !== undefined) after.set(file.path, { text: file.newText, binary });
      if (file.previousPath && file.previousPath !== file.path) this.renames.set(file.previousPath, file.path);
    }
    // Pull requests may share a base: its files are the union of what each scenario says is there.
    const known = this.commits.get(mergeBaseSha);
    this.commits.set(mergeBaseSha, {
      parents: known?.parents ?? [],
      files: new Map([...(known?.files ?? []), ...before]),
    });
    if (scenario.baseSha !== mergeBaseSha) {
      const tip = this.commits.get(scenario.baseSha);
      this.commits.set(scenario.baseSha, {
        parents: [mergeBaseSha],
        files: new Map([...(tip?.files ?? []), ...before]),
      });
    }
    const loaded = this.pullRequests.get(scenario.number);
    const previous = loaded?.revisions.at(-1);
    const isPush = previous !== undefined && previous.headSha !== scenario.headSha;
    const parent = isPush && scenario.relationToPreviousHead !== 'diverged' ? previous.headSha : mergeBaseSha;
    this.commits.set(scenario.headSha, { parents: [parent], files: after });
    this.branchTips.set(scenario.sourceBranch, scenario.headSha);
    this.branchTips.set(scenario.targetBranch, scenario.baseSha);
    for (const [branch, files] of Object.entries(scenario.branchFiles ?? {})) {
      const known = this.branchFiles.get(branch) ?? new Map<string, string>();
      for (const [path, text] of Object.entries(files)) known.set(path, text);
      this.branchFiles.set(branch, known);
    }
    const revision: ScenarioRevision = {
      headSha: scenario.headSha,
      baseSha: scenario.baseSha,
      mergeBaseSha,
      changes: scenario.files.map((file) => ({
        changeType: file.changeType,
        oldPath: file.changeType === 'added' ? undefined : (file.previousPath ?? file.path),
        newPath: file.changeType === 'deleted' ? undefined : file.path,
        oldText: file.oldText ?? '',
        newText: file.newText ?? '',
        binary: file.binary === true,
      })),
    };
    const revisions = loaded ? [...loaded.revisions] : [];
    if (isPush || revisions.length === 0) revisions.push(revision);
    else revisions[revisions.length - 1] = revision;
    const next = { scenario, revisions };
    this.pullRequests.set(scenario.number, next);
    return next;
  }

  hasCommit(sha: string): boolean {
    return this.commits.has(sha);
  }

  /** A full SHA from an abbreviation (Bitbucket's 12-character hashes), if some commit starts with it. */
  resolveCommit(prefix: string): string | undefined {
    for (const sha of this.commits.keys()) if (sha.startsWith(prefix)) return sha;
    return undefined;
  }

  /** The commit a branch points at, when a loaded scenario named the branch. */
  branchTip(branch: string): string | undefined {
    return this.branchTips.get(branch);
  }

  /** A file at a commit SHA or a branch tip (branch-only files first, then the tip commit's). */
  fileAt(version: string, path: string): FileVersion | undefined {
    const onBranch = this.branchFiles.get(version)?.get(path);
    if (onBranch !== undefined) return { text: onBranch, binary: false };
    const sha = this.branchTips.get(version) ?? version;
    return this.commits.get(sha)?.files.get(path);
  }

  /** The commits reachable from `sha`, itself first, following every parent. */
  ancestors(sha: string): string[] {
    const seen: string[] = [];
    const queue = [sha];
    while (queue.length > 0) {
      const next = queue.shift() as string;
      if (seen.includes(next) || !this.commits.has(next)) continue;
      seen.push(next);
      queue.push(...(this.commits.get(next)?.parents ?? []));
    }
    return seen;
  }

  /** The nearest common ancestor, or undefined when the histories never meet. */
  mergeBase(a: string, b: string): string | undefined {
    const ofB = new Set(this.ancestors(b));
    return this.ancestors(a).find((sha) => ofB.has(sha));
  }

  /** What differs between two commits' files, by path, with declared renames paired; sorted by path. */
  changesBetween(fromSha: string, toSha: string): FileChange[] {
    const from = this.commits.get(fromSha)?.files ?? new Map<string, FileVersion>();
    const to = this.commits.get(toSha)?.files ?? new Map<string, FileVersion>();
    const changes: FileChange[] = [];
    const paired = new Set<string>();
    for (const [oldPath, newPath] of this.renames) {
      const before = from.get(oldPath);
      const after = to.get(newPath);
      if (!before || !after || to.has(oldPath) || from.has(newPath)) continue;
      paired.add(oldPath).add(newPath);
      changes.push(change('renamed', oldPath, newPath, before, after));
    }
    for (const [path, before] of from) {
      if (paired.has(path)) continue;
      const after = to.get(path);
      if (!after) changes.push(change('deleted', path, undefined, before, undefined));
      else if (after.text !== before.text || after.binary !== before.binary) {
        changes.push(change('modified', path, path, before, after));
      }
    }
    for (const [path, after] of to) {
      if (!paired.has(path) && !from.has(path)) changes.push(change('added', undefined, path, undefined, after));
    }
    return changes.sort((x, y) => pathOf(x).localeCompare(pathOf(y)));
  }
}

function change(
  changeType: ChangeType,
  oldPath: string | undefined,
  newPath: string | undefined,
  before: FileVersion | undefined,
  after: FileVersion | undefined,
): FileChange {
  return {
    changeType,
    oldPath,
    newPath,
    oldText: before?.text ?? '',
    newText: after?.text ?? '',
    binary: before?.binary === true || after?.binary === true,
  };
}

/** The path a change is known by: the new one, or the old one for a deletion. */
export function pathOf(change: FileChange): string {
  return change.newPath ?? change.oldPath ?? '';
}

/** `--- a/…` / `+++ b/…` and hunks, or git's `Binary files … differ` line, as `git diff` prints them. */
export function unifiedDiffOf(change: FileChange): Promise<string> {
  return computeUnifiedDiff({
    oldPath: change.oldPath,
    newPath: change.newPath,
    oldText: change.oldText,
    newText: change.newText,
    isBinary: change.binary,
  });
}

/** A file's bytes as a provider serves them: UTF-8 text, with a NUL in front of a binary's content. */
export function fileBytes(version: FileVersion): Buffer {
  return Buffer.from(version.binary ? `\u0000${version.text}` : version.text, 'utf8');
}

/** Lines a file has (a final newline ends the last line rather than starting another). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').length;
}
