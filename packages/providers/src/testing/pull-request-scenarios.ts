import { createHash } from 'node:crypto';
import type { ChangeType } from '@margin/core';
import type { PullRequestScenario, PullRequestScenarioFile } from '@margin/core/testing';
import { computeUnifiedDiff } from '../scm/shared/index.js';

/**
 * The provider-neutral half of every scenario-driven fake (`fake.loadPullRequest(scenario)`): it keeps
 * each pull request's revisions (a load with a new head is a push), answers what a file holds at any
 * head, base or merge base (or branch tip), how two heads relate, and computes each change's diff
 * once, as git prints it. Each fake turns these into its own wire shapes.
 */

export interface ScenarioBlob {
  text: string;
  binary: boolean;
  /** What the provider serves: the text, with a NUL first for a binary. */
  bytes: Buffer;
  /** Git's blob id of `bytes`. */
  blobId: string;
}

export interface ScenarioChange {
  path: string;
  previousPath?: string | undefined;
  changeType: ChangeType;
  old?: ScenarioBlob | undefined;
  new?: ScenarioBlob | undefined;
  /** The unified diff as `git diff` prints it, `---`/`+++` headers included. */
  diff: string;
  /** The hunks alone without a final newline (GitHub's `patch`); undefined for binaries and pure renames. */
  hunks?: string | undefined;
  additions: number;
  deletions: number;
  /** Lines shown in the hunks: old side (removed and context), new side (added and context). */
  lines: { old: Set<number>; new: Set<number> };
}

export interface ScenarioRevision {
  headSha: string;
  baseSha: string;
  mergeBaseSha: string;
  /** This head rewrote history (a force push) instead of descending from the previous one. */
  rewritten: boolean;
  changes: ScenarioChange[];
}

export interface ScenarioPullRequest {
  /** The scenario loaded last. */
  scenario: PullRequestScenario;
  /** Oldest first; the last is the current head. */
  revisions: ScenarioRevision[];
}

export type ScenarioRelation = 'ahead' | 'behind' | 'identical' | 'diverged';

export interface ScenarioComparison {
  relation: ScenarioRelation;
  mergeBaseSha: string;
  /** What differs from `fromSha` to `toSha` (a two-dot diff). */
  changes: ScenarioChange[];
}

export class PullRequestScenarios {
  readonly #pulls = new Map<number, ScenarioPullRequest>();

  /** Loads a pull request, or pushes a new head to one already loaded. */
  async load(scenario: PullRequestScenario): Promise<ScenarioPullRequest> {
    const revision: ScenarioRevision = {
      headSha: scenario.headSha,
      baseSha: scenario.baseSha,
      mergeBaseSha: scenario.mergeBaseSha ?? scenario.baseSha,
      rewritten: scenario.relationToPreviousHead === 'diverged',
      changes: await Promise.all(scenario.files.map(changeOf)),
    };
    const known = this.#pulls.get(scenario.number);
    if (!known) {
      const pull = { scenario, revisions: [{ ...revision, rewritten: false }] };
      this.#pulls.set(scenario.number, pull);
      return pull;
    }
    known.scenario = scenario;
    // Loading a head again replaces that revision; a new head is a push.
    const same = known.revisions.findIndex((r) => r.headSha === scenario.headSha);
    if (same >= 0) known.revisions[same] = { ...revision, rewritten: known.revisions[same]?.rewritten ?? false };
    else known.revisions.push(revision);
    return known;
  }

  get(number: number): ScenarioPullRequest | undefined {
    return this.#pulls.get(number);
  }

  all(): ScenarioPullRequest[] {
    return [...this.#pulls.values()];
  }

  /** A file at a head, base or merge base of any loaded pull request, or at a branch tip. */
  fileAt(version: string | { branch: string }, path: string): ScenarioBlob | undefined {
    if (typeof version !== 'string') return this.#fileOnBranch(version.branch, path);
    for (const pull of [...this.#pulls.values()].reverse()) {
      const head = pull.revisions.findLast((r) => r.headSha === version);
      if (head) return headFile(pull, head, path);
      const base = pull.revisions.findLast((r) => r.mergeBaseSha === version || r.baseSha === version);
      if (base) return baseFile(pull, base, path);
    }
    return undefined;
  }

  /** True when any loaded pull request names this commit. */
  knows(sha: string): boolean {
    return this.all().some((p) => p.revisions.some((r) => [r.headSha, r.baseSha, r.mergeBaseSha].includes(sha)));
  }

  /** How two commits of one loaded pull request relate, and what differs between them. */
  async compare(fromSha: string, toSha: string): Promise<ScenarioComparison | undefined> {
    for (const pull of this.#pulls.values()) {
      const from = positionOf(pull, fromSha);
      const to = positionOf(pull, toSha);
      if (from === undefined || to === undefined) continue;
      const relation = relationOf(pull, from, to);
      const mergeBaseSha =
        relation === 'ahead' || relation === 'identical'
          ? fromSha
          : relation === 'behind'
            ? toSha
            : (pull.revisions.at(-1)?.mergeBaseSha ?? fromSha);
      const target = typeof to === 'number' && to > 0 ? pull.revisions[to - 1] : undefined;
      // From the merge base (or the target tip) to a head is that revision's own change list.
      if (typeof from !== 'number' || from === 0) {
        if (target) return { relation, mergeBaseSha, changes: target.changes };
      }
      return { relation, mergeBaseSha, changes: await this.#treeDiff(pull, fromSha, toSha) };
    }
    return undefined;
  }

  #fileOnBranch(branch: string, path: string): ScenarioBlob | undefined {
    for (const pull of [...this.#pulls.values()].reverse()) {
      const text = pull.scenario.branchFiles?.[branch]?.[path];
      if (text !== undefined) return blobOf(text, false);
    }
    for (const pull of [...this.#pulls.values()].reverse()) {
      const latest = pull.revisions.at(-1);
      if (!latest) continue;
      if (pull.scenario.sourceBranch === branch) return headFile(pull, latest, path);
      if (pull.scenario.targetBranch === branch) return baseFile(pull, latest, path);
    }
    return undefined;
  }

  async #treeDiff(pull: ScenarioPullRequest, fromSha: string, toSha: string): Promise<ScenarioChange[]> {
    const paths = new Set<string>();
    for (const revision of pull.revisions) {
      for (const change of revision.changes) {
        paths.add(change.path);
        if (change.previousPath) paths.add(change.previousPath);
      }
    }
    const changes: ScenarioChange[] = [];
    for (const path of [...paths].sort()) {
      const before = this.fileAt(fromSha, path);
      const after = this.fileAt(toSha, path);
      if (before?.blobId === after?.blobId) continue;
      const changeType: ChangeType = !before ? 'added' : !after ? 'deleted' : 'modified';
      changes.push(await changeFromBlobs(path, undefined, changeType, before, after));
    }
    return changes;
  }
}

type Position = number | 'base';

/** 0 is the merge base, 1… the heads in push order, `base` the target tip when it moved past the merge base. */
function positionOf(pull: ScenarioPullRequest, sha: string): Position | undefined {
  const head = pull.revisions.findLastIndex((r) => r.headSha === sha);
  if (head >= 0) return head + 1;
  if (pull.revisions.some((r) => r.mergeBaseSha === sha)) return 0;
  if (pull.revisions.some((r) => r.baseSha === sha)) return 'base';
  return undefined;
}

function relationOf(pull: ScenarioPullRequest, from: Position, to: Position): ScenarioRelation {
  if (from === to) return 'identical';
  if (from === 'base' || to === 'base') return from === 0 ? 'ahead' : to === 0 ? 'behind' : 'diverged';
  const [low, high] = from < to ? [from, to] : [to, from];
  // The merge base is an ancestor of every head; between heads, a force push breaks the line.
  const rewritten = low > 0 && pull.revisions.slice(low, high).some((r) => r.rewritten);
  if (rewritten) return 'diverged';
  return from < to ? 'ahead' : 'behind';
}

function headFile(pull: ScenarioPullRequest, revision: ScenarioRevision, path: string): ScenarioBlob | undefined {
  const change = revision.changes.find((c) => c.path === path);
  if (change) return change.new;
  if (revision.changes.some((c) => c.previousPath === path)) return undefined;
  return baseFile(pull, revision, path);
}

function baseFile(pull: ScenarioPullRequest, revision: ScenarioRevision, path: string): ScenarioBlob | undefined {
  // A file unchanged in this revision may be described by another revision on the same merge base.
  const candidates = [revision, ...pull.revisions.filter((r) => r.mergeBaseSha === revision.mergeBaseSha)];
  for (const candidate of candidates) {
    const change = candidate.changes.find((c) => (c.previousPath ?? c.path) === path);
    if (change) return change.old;
  }
  return undefined;
}

export function blobOf(text: string, binary: boolean): ScenarioBlob {
  const bytes = binary ? Buffer.concat([Buffer.from([0]), Buffer.from(text)]) : Buffer.from(text);
  return { text, binary, bytes, blobId: gitBlobId(bytes) };
}

/** `git hash-object`: SHA-1 over `blob <size>\0` and the bytes. */
export function gitBlobId(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

async function changeOf(file: PullRequestScenarioFile): Promise<ScenarioChange> {
  const binary = file.binary ?? false;
  const before = file.changeType === 'added' ? undefined : blobOf(file.oldText ?? '', binary);
  const after = file.changeType === 'deleted' ? undefined : blobOf(file.newText ?? '', binary);
  return changeFromBlobs(file.path, file.previousPath, file.changeType, before, after);
}

async function changeFromBlobs(
  path: string,
  previousPath: string | undefined,
  changeType: ChangeType,
  before: ScenarioBlob | undefined,
  after: ScenarioBlob | undefined,
): Promise<ScenarioChange> {
  const diff = await computeUnifiedDiff({
    oldPath: before ? (previousPath ?? path) : undefined,
    newPath: after ? path : undefined,
    oldText: before?.text ?? '',
    newText: after?.text ?? '',
    isBinary: (before?.binary ?? false) || (after?.binary ?? false),
  });
  const body = diff.startsWith('--- ') ? diff.split('\n').slice(2).join('\n') : '';
  const hunks = body === '' ? undefined : body.replace(/\n$/, '');
  return { path, previousPath, changeType, old: before, new: after, diff, hunks, ...linesOf(hunks) };
}

/** Which lines of each side a unified diff's hunks show, and how many it adds and removes. */
export function linesOf(hunks: string | undefined): Pick<ScenarioChange, 'additions' | 'deletions' | 'lines'> {
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
