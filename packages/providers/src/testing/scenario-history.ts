import { createHash } from 'node:crypto';
import type { ChangeType, CommitComparison } from '@margin/core/spec';
import type { PullRequestScenario, PullRequestScenarioFile } from '@margin/core/testing';
import { computeUnifiedDiff, relationFromMergeBase } from '../scm/shared/index.js';

/**
 * The git side of every provider fake that serves `PullRequestScenario`s: commits with their
 * parents and files, branch tips, and every revision of each pull request, so a fake can answer
 * "this file at that commit", "what changed between these two commits" and "how do they relate"
 * the way its provider would. Each fake builds its own shapes (GitHub files with patches, Azure
 * DevOps iterations, GitLab `diffs[]`, Bitbucket diffstat, …) from the `FileChange`s given here.
 */

/** A file at a commit, with the bytes a provider serves and git's blob id of them. */
export interface FileVersion {
  text: string;
  binary: boolean;
  /** The text, with a NUL in front of a binary's. */
  bytes: Buffer;
  /** `git hash-object` of `bytes`. */
  blobId: string;
}

/** One file's change between two commits, with both versions. */
export interface FileChange {
  changeType: ChangeType;
  /** Undefined for an added file. */
  oldPath: string | undefined;
  /** Undefined for a deleted file. */
  newPath: string | undefined;
  /** The file at `oldPath`; undefined for an added file. */
  old: FileVersion | undefined;
  /** The file at `newPath`; undefined for a deleted file. */
  new: FileVersion | undefined;
}

export interface ScenarioRevision {
  headSha: string;
  baseSha: string;
  mergeBaseSha: string;
  /** This head rewrote history (a force push) instead of descending from the previous head. */
  rewritten: boolean;
  /** The scenario's files, in its order: the pull request's diff at this head. */
  changes: FileChange[];
}

export interface LoadedPullRequest {
  /** The scenario loaded last. */
  scenario: PullRequestScenario;
  /** Oldest first; a push appends. */
  revisions: ScenarioRevision[];
}

export interface ScenarioComparison {
  relation: CommitComparison['relation'];
  mergeBaseSha: string;
  /** What differs from the first commit to the second (a two-dot diff). */
  changes: FileChange[];
}

/**
 * A head holds its merge base's files with the scenario's changes applied, so a file the scenario
 * does not list reads as it is at the merge base; `files` is what differs from `base`, `null` where
 * a file is gone.
 */
interface Commit {
  parents: string[];
  base: string | undefined;
  files: Map<string, FileVersion | null>;
}

export class ScenarioHistory {
  private readonly commits = new Map<string, Commit>();
  private readonly branchTips = new Map<string, string>();
  private readonly branchFiles = new Map<string, Map<string, FileVersion>>();
  /** Renames any loaded scenario declared, old path → new path, to pair them in commit comparisons. */
  private readonly renames = new Map<string, string>();
  readonly pullRequests = new Map<number, LoadedPullRequest>();

  /**
   * Loads a scenario. The same `number` with another `headSha` is a push: the new head's parent is
   * the previous head (`ahead`, the default) or the merge base (`diverged`, a force push). The same
   * head again replaces the newest revision, and stays where it was in the history.
   */
  load(scenario: PullRequestScenario): LoadedPullRequest {
    const mergeBaseSha = scenario.mergeBaseSha ?? scenario.baseSha;
    const changes = scenario.files.map(changeOf);
    const before = new Map<string, FileVersion>();
    // What the head changes on its merge base: new versions, and `null` where a file moved or went.
    const atHead = new Map<string, FileVersion | null>();
    for (const { oldPath, newPath, old } of changes) {
      if (oldPath === undefined) continue;
      if (old) before.set(oldPath, old);
      if (oldPath !== newPath) atHead.set(oldPath, null);
      if (newPath !== undefined && oldPath !== newPath) this.renames.set(oldPath, newPath);
    }
    for (const change of changes)
      if (change.newPath !== undefined && change.new) atHead.set(change.newPath, change.new);
    // Pull requests may share a base: its files are the union of what each scenario says is there.
    const known = this.commits.get(mergeBaseSha);
    this.commits.set(mergeBaseSha, {
      parents: known?.parents ?? [],
      base: known?.base,
      files: new Map([...(known?.files ?? []), ...before]),
    });
    if (scenario.baseSha !== mergeBaseSha) {
      const tip = this.commits.get(scenario.baseSha);
      this.commits.set(scenario.baseSha, {
        parents: [mergeBaseSha],
        base: mergeBaseSha,
        files: new Map([...(tip?.files ?? []), ...before]),
      });
    }
    const loaded = this.pullRequests.get(scenario.number);
    const previous = loaded?.revisions.at(-1);
    const isPush = previous !== undefined && previous.headSha !== scenario.headSha;
    const rewritten = isPush ? scenario.relationToPreviousHead === 'diverged' : (previous?.rewritten ?? false);
    const parents = isPush
      ? [rewritten ? mergeBaseSha : previous.headSha]
      : ((previous && this.commits.get(scenario.headSha)?.parents) ?? [mergeBaseSha]);
    this.commits.set(scenario.headSha, { parents, base: mergeBaseSha, files: atHead });
    this.branchTips.set(scenario.sourceBranch, scenario.headSha);
    this.branchTips.set(scenario.targetBranch, scenario.baseSha);
    for (const [branch, files] of Object.entries(scenario.branchFiles ?? {})) {
      const onBranch = this.branchFiles.get(branch) ?? new Map<string, FileVersion>();
      for (const [path, text] of Object.entries(files)) onBranch.set(path, fileVersion(text, false));
      this.branchFiles.set(branch, onBranch);
    }
    const revision: ScenarioRevision = {
      headSha: scenario.headSha,
      baseSha: scenario.baseSha,
      mergeBaseSha,
      rewritten,
      changes,
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

  /** What a provider's `ref` parameter names: a commit the scenarios know, else a branch. */
  refOf(ref: string): string | { branch: string } {
    return this.commits.has(ref) ? ref : { branch: ref };
  }

  /** A file at a commit, or at the tip of a branch (files the scenarios name on the branch first). */
  fileAt(version: string | { branch: string }, path: string): FileVersion | undefined {
    if (typeof version !== 'string') {
      const onBranch = this.branchFiles.get(version.branch)?.get(path);
      if (onBranch !== undefined) return onBranch;
      const tip = this.branchTips.get(version.branch);
      return tip === undefined ? undefined : this.fileAt(tip, path);
    }
    const seen = new Set<string>();
    for (let sha: string | undefined = version; sha !== undefined && !seen.has(sha); ) {
      seen.add(sha);
      const commit = this.commits.get(sha);
      if (commit?.files.has(path)) return commit.files.get(path) ?? undefined;
      sha = commit?.base;
    }
    return undefined;
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

  /**
   * How `toSha` relates to `fromSha`, where their histories meet and what differs from the one to the
   * other; undefined unless both commits are known and share history. From a pull request's merge
   * base (or target tip) to one of its heads the changes are that head's own, in the scenario's
   * order, as a provider lists a pull request's files.
   */
  compare(fromSha: string, toSha: string): ScenarioComparison | undefined {
    if (!this.hasCommit(fromSha) || !this.hasCommit(toSha)) return undefined;
    const mergeBaseSha = this.mergeBase(fromSha, toSha);
    if (mergeBaseSha === undefined) return undefined;
    return {
      relation: relationFromMergeBase(fromSha, toSha, mergeBaseSha),
      mergeBaseSha,
      changes: this.pullRequestChanges(fromSha, toSha) ?? this.changesBetween(fromSha, toSha),
    };
  }

  /** What differs between two commits' files, by path, with declared renames paired; sorted by path as git sorts. */
  changesBetween(fromSha: string, toSha: string): FileChange[] {
    const from = this.filesOf(fromSha);
    const to = this.filesOf(toSha);
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
      else if (after.blobId !== before.blobId) changes.push(change('modified', path, path, before, after));
    }
    for (const [path, after] of to) {
      if (!paired.has(path) && !from.has(path)) changes.push(change('added', undefined, path, undefined, after));
    }
    return changes.sort((x, y) => byPath(pathOf(x), pathOf(y)));
  }

  /** The head's own changes when `fromSha` is the merge base or target tip of a revision with head `toSha`. */
  private pullRequestChanges(fromSha: string, toSha: string): FileChange[] | undefined {
    for (const pull of this.pullRequests.values()) {
      const head = pull.revisions.findLast((r) => r.headSha === toSha);
      if (head && pull.revisions.some((r) => r.mergeBaseSha === fromSha || r.baseSha === fromSha)) return head.changes;
    }
    return undefined;
  }

  /** Every file at a commit, from its base up. */
  private filesOf(sha: string): Map<string, FileVersion> {
    const chain: Commit[] = [];
    for (let at: string | undefined = sha; at !== undefined; ) {
      const commit = this.commits.get(at);
      if (!commit || chain.includes(commit)) break;
      chain.unshift(commit);
      at = commit.base;
    }
    const files = new Map<string, FileVersion>();
    for (const commit of chain) {
      for (const [path, version] of commit.files) {
        if (version) files.set(path, version);
        else files.delete(path);
      }
    }
    return files;
  }
}

/** A file as a scenario gives it: the bytes a provider serves (a NUL in front of a binary's) and their blob id. */
export function fileVersion(text: string, binary: boolean): FileVersion {
  const bytes = Buffer.from(binary ? `\u0000${text}` : text, 'utf8');
  return { text, binary, bytes, blobId: gitBlobId(bytes) };
}

/** `git hash-object`: SHA-1 over `blob <size>\0` and the bytes. */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The path a change is known by: the new one, or the old one for a deletion. */
export function pathOf(change: FileChange): string {
  return change.newPath ?? change.oldPath ?? '';
}

/** The path a renamed (or moved) file had before, when it differs from `pathOf`. */
export function previousPathOf(change: FileChange): string | undefined {
  return change.oldPath !== undefined && change.oldPath !== pathOf(change) ? change.oldPath : undefined;
}

/** One file's diff as git prints it, and what its hunks show. */
export interface ChangeDiff {
  /** `--- a/…` / `+++ b/…` and hunks, or git's `Binary files … differ` line, as `git diff` prints them. */
  text: string;
  /** The hunks alone without a final newline (GitHub's `patch`); undefined for binaries and pure renames. */
  hunks: string | undefined;
  additions: number;
  deletions: number;
  /** Lines shown in the hunks: old side (removed and context), new side (added and context). */
  lines: { old: Set<number>; new: Set<number> };
}

const diffs = new WeakMap<FileChange, Promise<ChangeDiff>>();

/** A change's diff, computed once per change: a pull request's files are listed and diffed again and again. */
export function diffOf(change: FileChange): Promise<ChangeDiff> {
  let known = diffs.get(change);
  if (!known) {
    known = computeDiff(change);
    diffs.set(change, known);
  }
  return known;
}

async function computeDiff(change: FileChange): Promise<ChangeDiff> {
  const text = await computeUnifiedDiff({
    oldPath: change.oldPath,
    newPath: change.newPath,
    oldText: change.old?.text ?? '',
    newText: change.new?.text ?? '',
    isBinary: (change.old?.binary ?? false) || (change.new?.binary ?? false),
  });
  const body = text.startsWith('--- ') ? text.split('\n').slice(2).join('\n') : '';
  const hunks = body === '' ? undefined : body.replace(/\n$/, '');
  return { text, hunks, ...linesOf(hunks) };
}

/** Which lines of each side a unified diff's hunks show, and how many it adds and removes. */
function linesOf(hunks: string | undefined): Pick<ChangeDiff, 'additions' | 'deletions' | 'lines'> {
  const lines = { old: new Set<number>(), new: new Set<number>() };
  let additions = 0;
  let deletions = 0;
  let oldLine = 0;
  let newLine = 0;
  for (const line of (hunks ?? '').split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
    } else if (line.startsWith('+')) {
      lines.new.add(newLine++);
      additions++;
    } else if (line.startsWith('-')) {
      lines.old.add(oldLine++);
      deletions++;
    } else if (line.startsWith(' ')) {
      lines.old.add(oldLine++);
      lines.new.add(newLine++);
    }
  }
  return { additions, deletions, lines };
}

/** Lines a file has (a final newline ends the last line rather than starting another). */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').length;
}

function changeOf(file: PullRequestScenarioFile): FileChange {
  const binary = file.binary === true;
  const added = file.changeType === 'added';
  const deleted = file.changeType === 'deleted';
  return {
    changeType: file.changeType,
    oldPath: added ? undefined : (file.previousPath ?? file.path),
    newPath: deleted ? undefined : file.path,
    old: added ? undefined : fileVersion(file.oldText ?? '', binary),
    new: deleted ? undefined : fileVersion(file.newText ?? '', binary),
  };
}

function change(
  changeType: ChangeType,
  oldPath: string | undefined,
  newPath: string | undefined,
  before: FileVersion | undefined,
  after: FileVersion | undefined,
): FileChange {
  return { changeType, oldPath, newPath, old: before, new: after };
}

/** Git orders paths by their bytes, not by locale. */
function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
